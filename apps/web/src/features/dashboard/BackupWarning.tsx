import { Link } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQuery } from '@tanstack/react-query';
import { BACKUP_WARNING_TEXTS, DEFAULT_STORE_TIMEZONE, formatAuditTime } from '@kanak/contract';
import { useBranding } from '../../lib/branding';
import { useMayCall } from '../../lib/me';
import { PATHS } from '../../lib/paths';
import { backupsQuery } from '../../lib/backups';

const texts = BACKUP_WARNING_TEXTS;

/**
 * On the owner's dashboard: a warning while the shop's data has no good backup from the last
 * 26 hours (or none at all), with the way to the Backups screen. Nothing for other roles, and
 * nothing while the answer is awaited or could not be read.
 */
export function BackupWarning() {
  const mayView = useMayCall('backups');
  const backups = useQuery({ ...backupsQuery(1), enabled: mayView });
  const timeZone = useBranding().branding?.storeTimezone ?? DEFAULT_STORE_TIMEZONE;
  const list = backups.data;
  if (!mayView || !list?.stale) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 3, alignItems: 'center' }}
      action={
        <Button component={Link} to={PATHS.backups} color="inherit" variant="outlined" size="small">
          {texts.open}
        </Button>
      }
    >
      {list.lastGoodAt ? texts.stale(formatAuditTime(list.lastGoodAt, timeZone)) : texts.none}
    </Alert>
  );
}
