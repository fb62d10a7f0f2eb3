/** The shape of a notifications lint rule, and the ConfigMap it reads. */
import type { ClusterConfig } from '../../config/schema';
import type { LoadedConfig } from '../../notifications/model/loaded-config';
import type { Engine } from './engines';

export interface Problem {
  readonly message: string;
  readonly fix: string;
}

/** A rendered notifications ConfigMap of one engine. */
export interface NotificationsConfigMap {
  readonly engine: Engine;
  readonly data: Readonly<Record<string, string>>;
  /** The YAML text of the rendered document, when known (to check how values were written). */
  readonly source?: string;
  /** The cluster file it was rendered from. */
  readonly config: ClusterConfig;
  /** Why the engine would refuse the whole ConfigMap; empty when it accepts it. */
  readonly loadProblems: readonly string[];
}

/** A ConfigMap the engine accepts, with what the engine reads from it. */
export interface LoadedConfigMap extends NotificationsConfigMap {
  readonly loaded: LoadedConfig;
}

interface RuleBase {
  /** The rule id after `notifications/`, e.g. `nil-safe`. */
  readonly name: string;
  /** The engines whose ConfigMap the rule applies to. */
  readonly engines: readonly Engine[];
}

/** A rule reads the ConfigMap's data as written, or (skipped when the engine refuses it) what the engine loaded. */
export type NotificationRule =
  | (RuleBase & { readonly reads: 'data'; check(configMap: NotificationsConfigMap): Problem[] })
  | (RuleBase & { readonly reads: 'loaded'; check(configMap: LoadedConfigMap): Problem[] });

export const BOTH_ENGINES: readonly Engine[] = ['rollouts', 'argocd'];
