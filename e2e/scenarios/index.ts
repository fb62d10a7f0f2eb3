import type { Scenario } from '../lib/report';
import { argoCdSyncFailure } from './argocd';
import { argoManagedRollout } from './argo-managed-rollout';
import type { E2eContext } from './context';
import { fleet } from './fleet';
import { heartbeat, receiverDown } from './heartbeat';
import { helmChartDelivery } from './helm-chart-delivery';
import { hookPinnedSync } from './hook-pinned-sync';
import { initFromCluster } from './init-from-cluster';
import { phase0 } from './phase0';
import { podPlacement } from './pod-placement';
import { prune } from './prune';
import { teamKeysKept } from './team-keys-kept';
import { realSyncFailure } from './real-sync-failure';
import { syncFailureRelayDown } from './sync-failure-relay-down';
import { teamNotifications } from './team-notifications';
import { veridorGate } from './veridor';
import { workloadRef } from './workload-ref';

export interface ScenarioDefinition {
  readonly name: string;
  /** The source document the scenario replays. */
  readonly source: string;
  readonly run: (ctx: E2eContext, s: Scenario) => Promise<void>;
  /** Runs after the others, on its own: it loads the controllers enough to slow the scenarios beside it. */
  readonly alone?: boolean;
}

/** Each works on objects of its own, so they run side by side. */
export const SCENARIOS: readonly ScenarioDefinition[] = [
  { name: 'Phase 0 S2 table', source: 'context/000 (Phase 0 findings), S2', run: phase0 },
  { name: 'heartbeat', source: 'context/000, rule C and the heartbeat result', run: heartbeat },
  { name: 'receiver down', source: 'context/000, rule C (receiver scaled to zero)', run: receiverDown },
  {
    name: 'prune',
    source: "context/000, option A (the prune CronJob); issue 41, item 2 (glidepath's keys only)",
    run: prune,
    // The rendered program prunes every tracked namespace: each run resends the states of the others' Rollouts.
    alone: true,
  },
  {
    name: 'team keys kept',
    source: 'issue 41, item 3 (a team trigger with oncePer fires once across prune runs)',
    run: teamKeysKept,
    alone: true,
  },
  { name: 'Veridor gate', source: 'context/004 (the Veridor Argo Rollouts page), its e2e table', run: veridorGate },
  {
    name: 'pod placement',
    source: 'issue 43 item 4: veridor.pod against the API server and Pod Security (server-side dry runs)',
    run: podPlacement,
  },
  // The status written by hand, for the shapes a real sync does not give on cue: a re-reconcile with an unchanged
  // finishedAt, a second failure of the same Application, an Application that never synced, one unlabelled.
  {
    name: 'Argo CD sync failure',
    source: 'context/000, S5; README "When a sync-failure fact is sent"',
    run: argoCdSyncFailure,
  },
  {
    name: 'Argo-managed Rollout',
    source: 'context/000, second round (an Argo-managed throwaway app)',
    run: argoManagedRollout,
  },
  {
    name: 'hook-pinned sync',
    source: 'context/000, second round, S1 (a PostSync hook and an indefinite pause)',
    run: hookPinnedSync,
  },
  {
    name: 'helm chart delivery',
    source: 'docs/coexistence.md: delivery helm-values with the argo-rollouts chart 2.41.0',
    run: helmChartDelivery,
  },
  {
    name: 'team notifications',
    source: 'issue 23, item 6; docs/coexistence.md "The team\'s own notifications: extraData"',
    run: teamNotifications,
  },
  {
    name: 'init from the cluster',
    source: 'issue 43, item 1: glidepath init from the live cluster yields the values of e2e/clusters/e2e.yaml',
    run: initFromCluster,
    alone: true,
  },
  {
    name: 'real sync failure',
    source: 'context/000, second round (a real sync failure, retry limit 2)',
    run: realSyncFailure,
  },
  {
    name: 'sync failure relay down',
    source: 'issue 41, item 5; docs/argocd-facts.md "A fact lost while the relay is down is not sent again"',
    run: syncFailureRelayDown,
  },
  {
    name: 'workloadRef Rollout',
    source: 'issue 41, item 6; docs/rollouts-facts.md "workloadRef Rollouts"',
    run: workloadRef,
  },
  // 200 Rollouts load the controller: alone, after the others.
  { name: 'fleet', source: 'issue 41, item 8: a fleet on the real controller', run: fleet, alone: true },
];
