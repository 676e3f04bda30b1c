import type { Tx } from '../../db/client.js';
import { backupsRepo } from './backups.repo.js';

/** What other parts of the server may read of the backups module; the rest is its own. */
export const lastGoodBackupAgeSeconds = (tx: Tx) => backupsRepo.lastGoodAgeSeconds(tx);
