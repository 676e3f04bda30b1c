import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { ProfileForm } from './ProfileForm';

/** My Profile (/home/user): change one's own password. */
export function ProfilePage() {
  return (
    <>
      <PageHeader title={PAGE_TITLES.user} />
      <ProfileForm />
    </>
  );
}
