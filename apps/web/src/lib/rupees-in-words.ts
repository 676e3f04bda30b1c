import { ToWords } from 'to-words/en-IN';

const toWords = new ToWords();

/** An amount as a receipt writes it out, in lakh and crore: "One Lakh Five Thousand Rupees Only". */
export const rupeesInWords = (rupees: number): string =>
  toWords.convert(rupees, { currency: true });

/** A month (YYYY-MM) by its name: "December 2026". */
export function monthInWords(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat('en-IN', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, number - 1, 1)));
}
