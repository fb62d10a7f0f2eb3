import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ClusterConfig } from '../config/schema';
import { PruneCronJob, RELEASE_TRACKED_SELECTOR } from '../constructs/prune-cron-job';
import { PruneProgramConfigMap } from '../constructs/prune-program-config-map';
import { PruneRbac } from '../constructs/prune-rbac';
import { PruneServiceAccount } from '../constructs/prune-service-account';
import { COMMON_LABELS } from './labels';
import { NOTIFIED_ANNOTATION } from '../notifications/engine-facts';
import { ROLLOUT_OWNED_KEYS } from '../notifications/rollouts/rollout-fact';
import type { PruneProgramConfig } from '../prune/program/notified-prune';

/** Chart id, so the file is `notified-prune.k8s.yaml`. */
export const PRUNE_CHART_ID = 'notified-prune';
/** Name of the CronJob, its ServiceAccount and every RBAC object. */
export const PRUNE_NAME = 'glidepath-notified-prune';

export interface PruneChartProps {
  readonly config: ClusterConfig;
}

/**
 * The prune of the notified annotation: a CronJob, the ConfigMap of its program and its ServiceAccount in
 * `prune.namespace` (the Rollouts controller's by default), and a Role per tracked namespace (or one ClusterRole
 * with `prune.clusterScope`).
 * The chart has no default namespace: the Roles live in the tracked namespaces, the ClusterRole in none.
 */
export class PruneChart extends Chart {
  constructor(scope: Construct, id: string, props: PruneChartProps) {
    super(scope, id, { labels: COMMON_LABELS });
    const { prune, tracked } = props.config;
    const serviceAccount = new PruneServiceAccount(this, 'ServiceAccount', {
      name: PRUNE_NAME,
      namespace: prune.namespace,
    });
    new PruneRbac(this, 'Rbac', {
      name: PRUNE_NAME,
      serviceAccount,
      namespaces: tracked.namespaces,
      clusterScope: prune.clusterScope,
    });
    const program = new PruneProgramConfigMap(this, 'Program', {
      name: PRUNE_NAME,
      namespace: prune.namespace,
      config: pruneProgramConfig(props.config),
    });
    new PruneCronJob(this, 'CronJob', {
      name: PRUNE_NAME,
      namespace: prune.namespace,
      schedule: prune.schedule,
      image: prune.image,
      serviceAccountName: serviceAccount.name,
      programConfigMap: program.name,
      ...(prune.pod !== undefined ? { placement: prune.pod } : {}),
    });
  }
}

/** What the rendered program prunes: the tracked namespaces, glidepath's keys (or all, with `prune.keys: all`). */
export function pruneProgramConfig(config: ClusterConfig): PruneProgramConfig {
  return {
    namespaces: config.tracked.namespaces,
    selector: RELEASE_TRACKED_SELECTOR,
    annotation: NOTIFIED_ANNOTATION,
    keys: config.prune.keys,
    owned: ROLLOUT_OWNED_KEYS,
    pageSize: 100,
    concurrency: 4,
    attempts: 5,
  };
}
