/** What the notifications rules know of each engine: its variables, the objects it may meet, its resync. */
import type { RootObjects } from '../../notifications/expr/analyze';
import type { LoadedConfig } from '../../notifications/model/loaded-config';
import { evaluate, type ExprSemantics } from '../../notifications/model/expr-eval';
import type { Expr } from '../../notifications/expr/ast';
import { ARGOCD_MODE, ROLLOUTS_MODE, type EngineMode } from '../../notifications/model/modes';
import { formatGoValue, fromJson, type GoMap } from '../../notifications/model/values';
import { ODD_APPLICATIONS, ODD_ROLLOUTS, STEADY_APPLICATION, STEADY_ROLLOUT, type OddObject } from './odd-objects';

export type Engine = 'rollouts' | 'argocd';

/** A fixed, deterministic clock for evaluating expressions and time buckets. */
export const EPOCH = Date.UTC(2026, 9, 6, 1, 0, 0);

/** Argo CD's default `timeout.reconciliation` (its resync), for the argocd heartbeat check. */
const ARGOCD_RESYNC_SECONDS = 180;

interface EngineFacts {
  readonly mode: EngineMode;
  /** The kind of object it notifies about, as messages name it. */
  readonly objectKind: string;
  readonly oddObjects: readonly OddObject[];
  readonly steadyObject: OddObject;
  /** The root variable and the objects every such object has; any other field may be missing. */
  readonly objects: RootObjects;
}

export const ENGINES: Readonly<Record<Engine, EngineFacts>> = {
  rollouts: {
    mode: ROLLOUTS_MODE,
    objectKind: 'Rollout',
    oddObjects: ODD_ROLLOUTS,
    steadyObject: STEADY_ROLLOUT,
    objects: { root: 'rollout', alwaysPresent: new Set(['rollout', 'rollout.metadata', 'rollout.spec']) },
  },
  argocd: {
    mode: ARGOCD_MODE,
    objectKind: 'Application',
    oddObjects: ODD_APPLICATIONS,
    steadyObject: STEADY_APPLICATION,
    objects: { root: 'app', alwaysPresent: new Set(['app', 'app.metadata', 'app.spec', 'app.status']) },
  },
};

/** The controller's resync period: the Rollouts one from the cluster file, Argo CD's default. */
export function resyncSeconds(engine: Engine, rolloutsResyncSeconds: number): number {
  return engine === 'rollouts' ? rolloutsResyncSeconds : ARGOCD_RESYNC_SECONDS;
}

export function variables(
  engine: Engine,
  object: Record<string, unknown>,
  now: number,
  context: Readonly<Record<string, string>> = {},
): GoMap {
  return ENGINES[engine].mode.variables(fromJson(object) as GoMap, new Date(now), context);
}

/** Every condition of every trigger, with how messages name it. */
export function conditions(loaded: LoadedConfig) {
  return [...loaded.triggers].flatMap(([trigger, list]) =>
    list.map((condition) => ({ trigger, condition, at: `trigger.${trigger}[${condition.index}]` })),
  );
}

/** The value as the engine would print it, or the evaluation error as text. */
export function evaluateText(expr: Expr, env: GoMap, semantics?: ExprSemantics): string {
  try {
    return formatGoValue(evaluate(expr, env, semantics));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/** A value short enough for a message. */
export function excerpt(text: string): string {
  const flat = JSON.stringify(text);
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}
