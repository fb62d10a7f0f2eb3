/** The notification checks of npm run verify (and the secrets one), without the slow-to-start schema family. */
import type { ClusterConfig } from '../../src/config/schema';
import { checkTeamNotifications } from '../../src/verify/extra-data';
import { checkNotifications } from '../../src/verify/notifications';
import { clusterObjects, verifyObjects, type VerifyReport } from '../../src/verify/run';
import { checkSecrets } from '../../src/verify/secrets';

/** Every object as verify sees it (helm values through their chart), through the families that read notifications. */
export function notificationChecks(config: ClusterConfig): VerifyReport {
  return verifyObjects(clusterObjects(config), { config }, [checkSecrets, checkNotifications, checkTeamNotifications]);
}
