/** The owner's Tiers screen: the ladder of tiers by spend, and when a tier falls. */
export const TIERS_TEXTS = {
  loading: 'Loading the tiers',
  loadFailed: 'Error in loading the tiers.',
  intro:
    "A customer's tier follows their spend: the eligible sales of the last 12 months, net of returns. It rises with the sale that reaches a tier's minimum spend. The earning % applies to the base rate's points: 100 earns as without tiers, 150 earns half as much again.",
  none: 'No tiers set: every customer earns the base rate. Add a tier to start.',
  tier: (n: number) => `Tier ${n}`,
  code: 'Code',
  codeHelp: 'e.g. GOLD',
  name: 'Name',
  minSpend: 'Minimum spend (₹)',
  earnPercent: 'Earning %',
  earnPercentHelp: '100 = the base rate',
  remove: (n: number) => `Remove tier ${n}`,
  add: 'Add tier',
  order: 'Order by spend',
  downgrade: 'A tier falls',
  downgrades: {
    anniversary: 'On its anniversary, when the last 12 months no longer qualify',
    never: 'Never',
  },
  save: 'Save tiers',
  saving: 'Saving the tiers',
  saveFailed: 'Error in saving the tiers.',
  confirmTitle: 'Let tiers fall on their anniversary?',
  confirmQuestion:
    'Every anniversary already passed is reviewed at the next daily run: a customer whose last 12 months no longer reach their tier moves down then.',
  cancel: 'CANCEL',
  confirm: 'SAVE',
} as const;

/** Where a customer stands, wherever staff look up their points (nothing while no tiers are set). */
export const TIER_STANDING_TEXTS = {
  noTier: 'No tier yet',
  spend12m: (rupees: string) => `${rupees} spent in the last 12 months`,
  toNext: (rupees: string, tier: string) => `${rupees} more to reach ${tier}`,
  /** Spend already enough (tiers set after the sales): the next sale lifts the customer. */
  nextSaleReaches: (tier: string) => `Reaches ${tier} with the next sale`,
} as const;

/** An owner's tier for one customer until a date, on Customer Profile. */
export const TIER_BY_HAND_TEXTS = {
  open: 'Set tier by hand',
  title: 'Set a tier by hand',
  intro:
    'Until the date, the higher of this tier and the one earned by spend applies; after it, the earned tier alone.',
  tier: 'Tier',
  none: 'None: end the tier set by hand',
  option: (name: string, code: string) => `${name} (${code})`,
  until: 'Until',
  cancel: 'CANCEL',
  confirm: 'SET TIER',
  saving: 'Setting the tier',
  failed: 'Error in setting the tier.',
  tiersFailed: 'Error in loading the tiers.',
} as const;
