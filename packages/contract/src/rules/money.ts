/*
 * Money as Kanak keeps it: integer paise in the database and in every sum; rupees (with at
 * most two decimals) only where an answer or a text shows them.
 */

/** What `points` are worth, in paise, at `pointValuePaise` a point. */
export const pointsWorthPaise = (points: number, pointValuePaise: number) =>
  points * pointValuePaise;

/** Paise as rupees, for an answer or a text that shows rupees. */
export const rupeesOfPaise = (paise: number) => paise / 100;

/** Rupees (as an answer carries them, to the paisa) as whole paise. */
export const paiseOfRupees = (rupees: number) => Math.round(rupees * 100);
