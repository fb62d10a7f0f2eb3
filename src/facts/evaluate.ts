/**
 * Runs states through the engine model on a rendered ConfigMap, as the controller would reconcile them one after
 * the other, and says for each state and trigger whether a fact is sent, why, and its body.
 */
import type { LoadedConfig } from '../notifications/model/loaded-config';
import {
  NotificationsEngine,
  type EngineOptions,
  type Outcome,
  type ReconcileResult,
} from '../notifications/model/engine';
import type { EngineMode } from '../notifications/model/modes';
import { fromJson, type GoMap } from '../notifications/model/values';
import { explainFalse } from './explain';
import type { PruneStep } from './rendered-prune';
import { isoSeconds, type InputState } from './input';
import { notifiedOf, withNotified, type Json } from './object-state';

export interface FactEntry {
  /** Index of the state in the input. */
  readonly state: number;
  readonly trigger: string;
  readonly sent: boolean;
  readonly why: string;
  /** The parsed JSON body, when sent (the raw text when it is not JSON). */
  readonly body?: unknown;
  /** `POST <url>`, when sent. */
  readonly request?: string;
}

export interface StateReport {
  readonly index: number;
  readonly name: string;
  readonly at: Date;
  readonly object: Json;
  readonly entries: readonly FactEntry[];
}

export function evaluateFacts(
  config: LoadedConfig,
  mode: EngineMode,
  states: readonly InputState[],
  options: EngineOptions = {},
  prune: PruneStep = () => undefined,
): StateReport[] {
  const engine = new NotificationsEngine(config, mode, options);
  let carried: string | undefined;
  return states.map((state, index) => {
    let object = state.object;
    if (index > 0) object = withNotified(object, carried);
    if (state.pruneNotified) object = withNotified(object, prune(notifiedOf(object)));
    const before = sentBefore(notifiedOf(object));
    const result = engine.reconcile(object, state.at);
    carried = notifiedOf(result.object);
    const variables = mode.variables(fromJson(object) as GoMap, state.at, config.context);
    const entries = [...config.triggers.keys()]
      .sort()
      .flatMap((trigger) => entriesOf(index, trigger, result, config, variables, before));
    return { index, name: state.name, at: state.at, object, entries };
  });
}

function entriesOf(
  state: number,
  trigger: string,
  result: ReconcileResult,
  config: LoadedConfig,
  variables: GoMap,
  before: ReadonlyMap<string, number>,
): FactEntry[] {
  const entry = (sent: boolean, why: string, extra: Partial<FactEntry> = {}): FactEntry => ({
    state,
    trigger,
    sent,
    why,
    ...extra,
  });
  if (result.skipped !== undefined) return [entry(false, `skipped by the controller: ${result.skipped}`)];
  if (!result.selected) {
    const selectors = config.subscriptions.map((s) => s.selectorText || '(no selector)').join(', ');
    return [entry(false, `not selected: no subscription matches the object's labels (selector ${selectors})`)];
  }
  const outcomes = result.outcomes.filter((o) => o.trigger === trigger);
  if (outcomes.length === 0) return [entry(false, 'no subscription that selects the object lists this trigger')];
  return outcomes.map((outcome) => {
    const evaluation = result.evaluations.find((e) => e.trigger === trigger && e.condition === outcome.condition)!;
    const condition = config.triggers.get(trigger)![outcome.condition]!;
    const delivery = result.deliveries.find((d) => d.stateKey === outcome.stateKey);
    if (outcome.outcome === 'sent' && delivery !== undefined) {
      const why = evaluation.oncePerError
        ? `under the plain key: the oncePer failed to evaluate (${evaluation.oncePerError})`
        : condition.oncePer
          ? newOncePer(
              outcome.stateKey.slice(evaluation.oncePer.length + 1),
              evaluation.oncePer,
              condition.oncePerText!,
              before,
            )
          : 'the condition became true';
      if (!delivery.modelled) return entry(true, why, { request: `sent to ${delivery.url} (body not modelled)` });
      return entry(true, why, { body: delivery.json ?? delivery.body, request: `${delivery.method} ${delivery.url}` });
    }
    if (outcome.outcome === 'not-modelled')
      return entry(false, `not evaluated: ${outcome.error ?? 'the engine model does not cover it'}`);
    if (outcome.outcome === 'not-triggered') {
      if (evaluation.whenError)
        return entry(
          false,
          `the condition fails to evaluate; the engine logs it and sends nothing: ${evaluation.whenError}`,
        );
      return entry(false, `the condition is false: ${explainFalse(condition.when, variables)}`);
    }
    if (outcome.outcome === 'already-sent')
      return entry(false, alreadySent(outcome, evaluation.oncePer, condition.oncePerText));
    return entry(
      false,
      `the notification fails to render; the engine logs it and sends nothing: ${outcome.error ?? 'unknown error'}`,
    );
  });
}

/** Key -> unix seconds of the notified annotation, as the engine reads it (unreadable: empty). */
function sentBefore(annotation: string | undefined): ReadonlyMap<string, number> {
  try {
    const parsed: unknown = JSON.parse(annotation ?? '{}');
    return new Map(
      Object.entries(typeof parsed === 'object' && parsed !== null ? parsed : {}).filter(
        (entry): entry is [string, number] => typeof entry[1] === 'number',
      ),
    );
  } catch {
    return new Map();
  }
}

/** Why a oncePer value is new: the first one, a new state, or the same state in a new time bucket (the heartbeat). */
function newOncePer(
  keySuffix: string,
  oncePer: string,
  oncePerText: string,
  before: ReadonlyMap<string, number>,
): string {
  const previous = [...before]
    .filter(([key]) => key.endsWith(`:${keySuffix}`))
    .sort(([, a], [, b]) => b - a)
    .map(([key, at]) => ({ oncePer: key.slice(0, -keySuffix.length - 1), at }))[0];
  if (previous === undefined)
    return `a new oncePer value (${oncePer}); nothing sent for this condition is recorded yet`;
  const stem = (value: string) => value.slice(0, value.lastIndexOf('/'));
  if (oncePerText.includes('time.Now()') && oncePer.includes('/') && stem(previous.oncePer) === stem(oncePer)) {
    return (
      `heartbeat: the same state in a new time bucket (${oncePer}; last sent at ` +
      `${isoSeconds(new Date(previous.at * 1000))})`
    );
  }
  return (
    `a new state (${oncePer}); the last one sent, at ${isoSeconds(new Date(previous.at * 1000))}, was ` +
    `${previous.oncePer}`
  );
}

function alreadySent(outcome: Outcome, oncePer: string, oncePerText: string | undefined): string {
  const since = outcome.sentAt === undefined ? '' : ` at ${isoSeconds(new Date(outcome.sentAt * 1000))}`;
  if (oncePerText === undefined)
    return `already sent${since}: the condition was already true; it sends again only after it has been false`;
  const bucket = oncePerText.includes('time.Now()') ? ': the same state in the same time bucket' : '';
  return `already sent${since} for this oncePer value (${oncePer})${bucket}`;
}
