/**
 * Applications as Argo CD's notifications controller sees them (the typed Application marshalled to JSON:
 * omitempty fields such as `retryCount` and `syncResult` absent), and the rendered `argocd-notifications-cm`.
 */
import { clusterConfig, validClusterFile } from '../../helpers/cluster-files';
import { loadConfigMapYaml } from '../../../src/notifications/configmap/config-map';
import type { LoadedConfig } from '../../../src/notifications/model/loaded-config';
import { ARGOCD_MODE } from '../../../src/notifications/model/modes';
import type { ClusterFile } from '../../../src/config/schema';
import { Replay, type Json } from '../helpers/replay';
import { renderedFile } from '../../helpers/rendered-file';

export { facts, mergePatch, Replay, type Json } from '../helpers/replay';

export const ARGOCD_FILE = 'argocd-notifications.k8s.yaml';

/** The rendered `argocd-notifications.k8s.yaml` of a test cluster; `retryFacts` switches the opt-in trigger on. */
export function renderedArgocdYaml(options: { retryFacts?: boolean; overrides?: Partial<ClusterFile> } = {}): string {
  const argocd = {
    ...validClusterFile().argocd,
    ...(options.retryFacts === undefined ? {} : { retryFacts: options.retryFacts }),
  };
  return renderedFile(clusterConfig({ argocd, ...options.overrides }), ARGOCD_FILE);
}

export function loadArgocdRendered(options: { retryFacts?: boolean } = {}): LoadedConfig {
  return loadConfigMapYaml(renderedArgocdYaml(options), ARGOCD_MODE.configMapName);
}

export const REVISION = '9f1c2e7a4b';

/** A tracked Application that the application controller has reconciled but never synced: no operationState. */
export function neverSynced(): Json {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name: 'hangar-api',
      namespace: 'argocd-apps',
      uid: '8b2d4f60-1c3e-4a5b-9d7e-2f4a6c8e0b13',
      generation: 12,
      labels: { 'hangar.io/release-tracked': 'true', 'hangar.io/app': 'hangar-api' },
      annotations: { 'hangar.io/release-id': 'rel-7' },
    },
    spec: {
      project: 'hangar',
      source: {
        repoURL: 'https://git.example.internal/hangar/deploy.git',
        path: 'apps/hangar-api',
        targetRevision: 'main',
      },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'shop' },
      syncPolicy: {
        automated: { selfHeal: true, prune: true },
        retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
      },
    },
    status: {
      reconciledAt: '2025-06-02T11:59:00Z',
      sync: { status: 'OutOfSync', revision: REVISION },
      health: { status: 'Healthy' },
    },
  };
}

const MESSAGE =
  'one or more objects failed to apply, reason: admission webhook "validate.kyverno.svc" denied the request';

/**
 * A merge patch: the operation of an automated sync that is failing, attempt `retryCount` failed and a retry is
 * pending.
 */
export function running(retryCount: number, startedAt = '2025-06-02T12:00:00Z', revision = REVISION): Json {
  return {
    status: {
      operationState: {
        operation: { sync: { revision }, initiatedBy: { automated: true }, retry: { limit: 5 } },
        phase: 'Running',
        message:
          retryCount === 0
            ? 'waiting for completion of hook batch/Job/hangar-api-migrate'
            : `${MESSAGE}. Retrying attempt #${retryCount} at 12:0${retryCount}PM.`,
        startedAt,
        // A merge patch: null removes what an earlier operation left (omitempty fields of a new operation are absent).
        retryCount: retryCount === 0 ? null : retryCount,
        finishedAt: null,
        syncResult: null,
      },
    },
  };
}

/** The operation after its last retry: Failed with finishedAt and NO syncResult; the sync status not yet refreshed. */
export function failed(finishedAt: string): Json {
  return {
    status: {
      operationState: { phase: 'Failed', message: `${MESSAGE} (retried 5 times).`, finishedAt, retryCount: 5 },
    },
  };
}

/** The application controller's next reconcile of the app (what makes the notification controller process it). */
export const reconciled = (at: string): Json => ({ status: { reconciledAt: at } });

export function succeeded(startedAt: string, finishedAt: string, revision: string): Json {
  return {
    status: {
      reconciledAt: finishedAt,
      sync: { status: 'Synced', revision },
      operationState: {
        operation: { sync: { revision }, initiatedBy: { automated: true }, retry: { limit: 5 } },
        phase: 'Succeeded',
        message: 'successfully synced (all tasks run)',
        startedAt,
        finishedAt,
        retryCount: null,
        syncResult: {
          revision,
          source: {
            repoURL: 'https://git.example.internal/hangar/deploy.git',
            path: 'apps/hangar-api',
            targetRevision: 'main',
          },
        },
      },
    },
  };
}

/** A replay of `initial` on the rendered `argocd-notifications-cm` `config`. */
export function appReplay(config: LoadedConfig, initial: Json): Replay {
  return new Replay(ARGOCD_MODE, config, initial);
}
