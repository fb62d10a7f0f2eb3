/** What a live cluster must hold for the rendered config to work, derived from the cluster file and its render. */
import { parseAllDocuments } from 'yaml';
import type { ClusterConfig } from '../config/schema';
import { loadConfigMapYaml } from '../notifications/model/config-map';
import { ARGOCD_MODE, ROLLOUTS_MODE, type EngineMode } from '../notifications/model/modes';
import type { RenderedFile } from '../render/render-cluster';

/** The Secret each engine substitutes `$key` from (notifications-engine: `<configmap's product>` naming). */
const NOTIFICATION_SECRETS: Readonly<Record<string, string>> = {
  [ROLLOUTS_MODE.configMapName]: 'argo-rollouts-notification-secret',
  [ARGOCD_MODE.configMapName]: 'argocd-notifications-secret',
};

/** The argo-helm chart that renders the same ConfigMap by default, and the value that stops it. */
const CHART_SWITCH: Readonly<Record<string, string>> = {
  [ROLLOUTS_MODE.configMapName]: 'argo-rollouts chart: notifications.configmap.create: false',
  [ARGOCD_MODE.configMapName]: 'argo-cd chart: notifications.cm.create: false',
};

export interface ExpectedNotifications {
  readonly engine: 'Argo Rollouts' | 'Argo CD';
  readonly namespace: string;
  readonly configMap: string;
  /** Data keys of the rendered ConfigMap. */
  readonly dataKeys: readonly string[];
  /** The rendered `context` map (Argo CD). */
  readonly context: Readonly<Record<string, string>>;
  readonly secret: string;
  /** Keys the services reference as `$key`. */
  readonly secretKeys: readonly string[];
  readonly chartSwitch: string;
}

/** The notifications ConfigMaps the render holds, with the Secret keys they reference. */
export function expectedNotifications(config: ClusterConfig, manifests: readonly RenderedFile[]): ExpectedNotifications[] {
  const targets: [EngineMode, string, ExpectedNotifications['engine']][] = [
    [ROLLOUTS_MODE, config.rollouts.namespace, 'Argo Rollouts'],
    [ARGOCD_MODE, config.argocd.namespace, 'Argo CD'],
  ];
  return targets.flatMap(([mode, namespace, engine]) => {
    const file = manifests.find((f) => f.content.includes(`name: ${mode.configMapName}\n`));
    if (file === undefined) return [];
    const loaded = loadConfigMapYaml(file.content, mode.configMapName);
    const referenced = [...loaded.services.values()].flatMap((service) => [service.url, ...service.headers.map((h) => h.value)].join(' ').match(/\$[\w-]+/g) ?? []);
    const configMap = parseAllDocuments(file.content).map((d) => d.toJS() as { kind?: string; metadata?: { name?: string }; data?: Record<string, string> })
      .find((object) => object.kind === 'ConfigMap' && object.metadata?.name === mode.configMapName);
    const dataKeys = Object.keys(configMap?.data ?? {});
    return [{
      engine,
      namespace,
      configMap: mode.configMapName,
      dataKeys,
      context: loaded.context,
      secret: NOTIFICATION_SECRETS[mode.configMapName]!,
      secretKeys: [...new Set(referenced.map((reference) => reference.slice(1)))].sort(),
      chartSwitch: CHART_SWITCH[mode.configMapName]!,
    }];
  });
}
