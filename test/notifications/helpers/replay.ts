/**
 * Reconciles of one object over time through the engine model, in either engine's mode: the notified annotation
 * the engine writes is carried into the next step, as the controller's own patch carries it.
 */
import { NOTIFIED_ANNOTATION } from '../../../src/notifications/engine-facts';
import { mergePatch, withNotified } from '../../../src/facts/object-state';
import type { LoadedConfig } from '../../../src/notifications/model/loaded-config';
import { NotificationsEngine, type ReconcileResult } from '../../../src/notifications/model/engine';
import type { EngineMode } from '../../../src/notifications/model/modes';

export type { Json } from '../../../src/facts/object-state';
export { mergePatch };
type Json = Record<string, unknown>;

/** The notifications Secret of every replay. */
export const SECRETS = { 'glidepath-relay-token': 'test-token' };

export interface Step {
  /** Seconds after the replay's start, or an RFC 3339 time. */
  readonly at: number | string;
  /** A merge patch of the current object. */
  readonly patch?: unknown;
  /** A whole new object (the notified annotation is carried over). */
  readonly object?: Json;
  /** Remove the notified annotation first (what the prune CronJob does). */
  readonly prune?: boolean;
}

export class Replay {
  private object: Json;
  private readonly engine: NotificationsEngine;

  constructor(
    mode: EngineMode,
    config: LoadedConfig,
    initial: Json,
    private readonly start = Date.parse('2025-06-02T09:00:00Z'),
  ) {
    this.engine = new NotificationsEngine(config, mode, { secrets: SECRETS });
    this.object = initial;
  }

  step(step: Step): ReconcileResult {
    let object =
      step.object === undefined
        ? step.patch === undefined
          ? this.object
          : (mergePatch(this.object, step.patch) as Json)
        : withNotified(step.object, this.notified);
    if (step.prune) object = withNotified(object, undefined);
    const at = typeof step.at === 'string' ? Date.parse(step.at) : this.start + step.at * 1000;
    const result = this.engine.reconcile(object, new Date(at));
    this.object = result.object;
    return result;
  }

  get current(): Json {
    return this.object;
  }

  /** The notified annotation's value now. */
  get notified(): string | undefined {
    return ((this.object.metadata as Json | undefined)?.annotations as Record<string, string> | undefined)?.[
      NOTIFIED_ANNOTATION
    ];
  }
}

/** The JSON bodies sent in one reconcile. */
export function facts(result: ReconcileResult): Json[] {
  return result.deliveries.map((delivery) => {
    if (delivery.json === undefined) throw new Error(`body is not JSON:\n${delivery.body}`);
    return delivery.json as Json;
  });
}
