import type { Scenario } from '../lib/report';
import { argoCdSyncFailure } from './argocd';
import { argoManagedRollout } from './argo-managed-rollout';
import type { E2eContext } from './context';
import { fleet } from './fleet';
import { heartbeat, receiverDown } from './heartbeat';
import { helmChartDelivery } from './helm-chart-delivery';
import { hookPinnedSync } from './hook-pinned-sync';
import { phase0 } from './phase0';
import { prune } from './prune';
import { realSyncFailure } from './real-sync-failure';
import { teamNotifications } from './team-notifications';
import { veridorGate } from './veridor';

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
    source: 'context/000, option A (the prune CronJob); DESIGN.md section 4 (kubectl annotate)',
    run: prune,
  },
  { name: 'Veridor gate', source: 'context/004 (the Veridor Argo Rollouts page), its e2e table', run: veridorGate },
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
    name: 'real sync failure',
    source: 'context/000, second round (a real sync failure, retry limit 2)',
    run: realSyncFailure,
  },
  // 200 Rollouts load the controller: alone, after the others.
  { name: 'fleet', source: 'issue 41, item 8: a fleet on the real controller', run: fleet, alone: true },
];
