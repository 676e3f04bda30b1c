import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';

/** Loyalty Points (/home/loyalty-points): add or deduct a customer's points. */
export function LoyaltyPointsPage() {
  return <PageHeader title={PAGE_TITLES.loyaltyPoints} />;
}
