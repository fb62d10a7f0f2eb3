/** The checks of `npm run check-live`, each reading what it needs with kubectl (get only) and judging it. */
import type { LiveCheckInput } from './check-input';
import { checkControllers } from './controller-check';
import { expectedNotifications } from './expected';
import type { Finding } from './findings';
import { checkConfigMap, checkSecret } from './notifications-check';
import { checkTrackedApplications, checkTrackedRollouts } from './tracked-check';
import { checkVeridor } from './veridor-check';

export async function checkLive(input: LiveCheckInput): Promise<Finding[]> {
  await input.kubectl.discover();
  const expected = expectedNotifications(input.config, input.manifests);
  const sections = await Promise.all([
    ...expected.map((e) => checkConfigMap(input, e)),
    ...expected.map((e) => checkSecret(input.kubectl, e)),
    checkControllers(input),
    checkTrackedRollouts(input),
    checkTrackedApplications(input),
    checkVeridor(input),
  ]);
  return sections.flat();
}
