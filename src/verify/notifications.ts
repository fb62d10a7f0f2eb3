/**
 * Notification lint on the rendered `argo-rollouts-notification-configmap` and `argocd-notifications-cm`, read as
 * the engine reads them (every key parsed, every expression evaluated and every template executed against odd but
 * real objects) by the rules of verify/notifications/.
 */
import { isRecord } from '../is-record';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../notifications/engine-facts';
import { splitOwnedData } from '../notifications/config/extra-data';
import { ConfigLoadError, loadConfigData } from '../notifications/configmap/config-map';
import type { LoadedConfig } from '../notifications/model/loaded-config';
import type { Engine } from './notifications/engines';
import type { NotificationsConfigMap } from './notifications/rule';
import { NOTIFICATION_RULES } from './notifications/rules';
import { objectRef, Tally, type FamilyReport, type RenderedObject, type VerifyContext } from './types';

const ENGINE_OF_CONFIGMAP: Readonly<Record<string, Engine>> = {
  [ROLLOUTS_NOTIFICATION_CONFIGMAP]: 'rollouts',
  [ARGOCD_NOTIFICATIONS_CONFIGMAP]: 'argocd',
};

export function checkNotifications(objects: readonly RenderedObject[], context: VerifyContext): FamilyReport {
  const tally = new Tally('notifications');
  for (const object of objects) {
    const found = notificationsConfigMap(object, context);
    if (found === undefined) continue;
    const { configMap, loaded } = found;
    const ref = objectRef(object.manifest);
    for (const rule of NOTIFICATION_RULES) {
      if (!rule.engines.includes(configMap.engine)) continue;
      if (rule.reads === 'data') tally.checkEach(ref, rule.name, () => rule.check(configMap));
      else if (loaded !== undefined) tally.checkEach(ref, rule.name, () => rule.check({ ...configMap, loaded }));
    }
  }
  return tally.report();
}

function notificationsConfigMap(
  object: RenderedObject,
  context: VerifyContext,
): { configMap: NotificationsConfigMap; loaded?: LoadedConfig } | undefined {
  const { manifest } = object;
  const name = manifest.metadata?.name;
  const engine =
    typeof name === 'string' && Object.hasOwn(ENGINE_OF_CONFIGMAP, name) ? ENGINE_OF_CONFIGMAP[name] : undefined;
  if (manifest.kind !== 'ConfigMap' || !isRecord(manifest.data) || engine === undefined) return undefined;
  const all = Object.fromEntries(Object.entries(manifest.data).map(([key, value]) => [key, String(value)]));
  // A team's own keys (extraData) are checked by verify/extra-data.ts, with the rules that fit them.
  const data = splitOwnedData(all, context.config[engine].extraData).glidepath;
  const common = {
    engine,
    data,
    config: context.config,
    ...(object.source !== undefined ? { source: object.source } : {}),
  };
  try {
    return { configMap: { ...common, loadProblems: [] }, loaded: loadConfigData(data, engine) };
  } catch (error) {
    if (!(error instanceof ConfigLoadError)) throw error;
    return { configMap: { ...common, loadProblems: error.problems } };
  }
}
