import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { CustomerProfileForm } from './CustomerProfileForm';

/** Customer Profile (/home/customer-profile): create or update a customer. */
export function CustomerProfilePage() {
  return (
    <>
      <PageHeader title={PAGE_TITLES.customerProfile} />
      <CustomerProfileForm />
    </>
  );
}
