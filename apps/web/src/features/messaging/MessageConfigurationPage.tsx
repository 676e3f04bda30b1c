import { PAGE_TITLES } from '@kanak/contract';
import { PageHeader } from '../../components/PageHeader';
import { PanelConfigForm } from './PanelConfigForm';

/** Message Configuration (/home/message-configuration): the messaging panel. */
export function MessageConfigurationPage() {
  return (
    <>
      <PageHeader title={PAGE_TITLES.messageConfiguration} />
      <PanelConfigForm />
    </>
  );
}
