import { z } from 'zod';

/**
 * Where a customer stands: the tier that applies (code and name; null with none), the eligible
 * spend of the last 12 months net of returns (rupees), the next tier and the spend it takes.
 * The look-ups leave these out while no tiers are set, answering as before tiers.
 */
export const tierStanding = z.object({
  tier: z.string().nullable(),
  tierName: z.string().nullable(),
  spend12m: z.number(),
  nextTier: z.string().nullable(),
  toNextTier: z.number().nullable(),
});
export type TierStanding = z.infer<typeof tierStanding>;
