import type { Scenario } from '../lib/report';
import { argoCdSyncFailure } from './argocd';
import type { E2eContext } from './context';
import { gitopsLoop } from './gitops-loop';
import { heartbeat, receiverDown } from './heartbeat';
import { phase0 } from './phase0';
import { prune } from './prune';
import { veridorGate } from './veridor';

export interface ScenarioDefinition {
  readonly name: string;
  /** The source document the scenario replays. */
  readonly source: string;
  readonly run: (ctx: E2eContext, s: Scenario) => Promise<void>;
}

/** Each works on objects of its own, so they run side by side. */
export const SCENARIOS: readonly ScenarioDefinition[] = [
  { name: 'Phase 0 S2 table', source: 'context/000 (Phase 0 findings), S2', run: phase0 },
  { name: 'heartbeat', source: 'context/000, rule C and the heartbeat result', run: heartbeat },
  { name: 'receiver down', source: 'context/000, rule C (receiver scaled to zero)', run: receiverDown },
  { name: 'prune', source: 'context/000, option A (the prune CronJob); DESIGN.md section 4 (kubectl annotate)', run: prune },
  { name: 'Veridor gate', source: 'context/004 (the Veridor Argo Rollouts page), its e2e table', run: veridorGate },
  { name: 'gitops loop', source: 'issue 24, item 4: pr on a real forge, merged through its API', run: gitopsLoop },
  { name: 'Argo CD sync failure', source: 'context/000, S5; README "When a sync-failure fact is sent"', run: argoCdSyncFailure },
];
