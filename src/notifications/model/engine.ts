/**
 * A model of notifications-engine v0.5.0's reconcile of one object (pkg/controller/controller.go), for tests
 * and the `verify` command: select destinations by subscription, evaluate each subscribed trigger's
 * conditions, keep the notified annotation, render and "send" the webhook requests.
 */
import { evaluate, type ExprSemantics } from './expr-eval';
import type { LoadedConfig, LoadedCondition } from './loaded-config';
import type { EngineMode } from './modes';
import { NOTIFIED_ANNOTATION, stateKey } from '../engine-facts';
import { NotModelledError } from './not-modelled';
import { OverBudgetError } from './template-budget';
import { NotifiedState } from './notified-state';
import { formatGoValue, fromJson, type GoMap } from './values';

export interface Destination {
  readonly service: string;
  readonly recipient: string;
}

/** A request the engine would send. */
export interface Delivery {
  readonly trigger: string;
  readonly condition: number;
  readonly destination: Destination;
  readonly oncePer: string;
  readonly stateKey: string;
  readonly method: string;
  readonly url: string;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
  readonly body: string;
  /** The body parsed as JSON, or undefined when it is not exactly one JSON value. */
  readonly json: unknown;
  /** False for a service other than webhook: it is sent (to `url`, `<type>:<recipient>`), its body is not modelled. */
  readonly modelled: boolean;
}

export interface Evaluation {
  readonly trigger: string;
  readonly condition: number;
  readonly triggered: boolean;
  readonly oncePer: string;
  /** The engine logs these and treats the condition as false (or the oncePer as empty). */
  readonly whenError?: string;
  readonly oncePerError?: string;
  /** The model cannot evaluate this condition (the engine may): nothing is claimed about it. */
  readonly unmodelled?: string;
}

/** What became of one condition for one destination in a reconcile. */
export interface Outcome {
  readonly trigger: string;
  readonly condition: number;
  readonly destination: Destination;
  readonly stateKey: string;
  /** `already-sent`: the condition is true but its key is in the notified annotation (since `sentAt`, unix seconds). */
  /** `not-modelled`: the model cannot tell (an expression or template function it lacks); not an engine error. */
  readonly outcome: 'sent' | 'already-sent' | 'not-triggered' | 'send-failed' | 'not-modelled';
  readonly sentAt?: number;
  readonly error?: string;
}

export interface ReconcileResult {
  readonly selected: boolean;
  readonly evaluations: readonly Evaluation[];
  readonly deliveries: readonly Delivery[];
  readonly outcomes: readonly Outcome[];
  /** Evaluation, template and send errors: each one is a fact silently not sent. */
  readonly errors: readonly string[];
  /** The object with the notified annotation as the engine leaves it: feed it to the next reconcile. */
  readonly object: Record<string, unknown>;
  readonly notifiedKeys: readonly string[];
  /** Why the controller did not process the object at all (Argo CD's refresh rule); nothing was evaluated. */
  readonly skipped?: string;
}

export interface EngineOptions {
  /** Values of the notifications Secret for `$key` in service settings. @default {} */
  readonly secrets?: Readonly<Record<string, string>>;
  /** How the release's expr evaluates (exprSemantics of its row). @default FLOAT_DIVISION */
  readonly exprSemantics?: ExprSemantics;
}

export class NotificationsEngine {
  constructor(
    private readonly config: LoadedConfig,
    private readonly mode: EngineMode,
    private readonly options: EngineOptions = {},
  ) {}

  /** One reconcile of `object` (plain JSON, as the API server returns it) at `now`. */
  reconcile(object: Readonly<Record<string, unknown>>, now: Date): ReconcileResult {
    const result: Mutable<ReconcileResult> = {
      selected: false,
      evaluations: [],
      deliveries: [],
      outcomes: [],
      errors: [],
      object: structuredClone(object),
      notifiedKeys: [],
    };
    const metadata = (result.object.metadata ?? {}) as {
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    };
    const destinations = this.destinations(metadata.labels ?? {});
    const state = NotifiedState.parse(metadata.annotations?.[NOTIFIED_ANNOTATION]);
    const skipped = this.mode.skipReason?.(fromJson(result.object) as GoMap);
    if (skipped !== undefined) return { ...result, notifiedKeys: state.keys(), skipped };
    if (destinations.size === 0) return { ...result, notifiedKeys: state.keys() };
    result.selected = true;

    const unstructured = fromJson(result.object) as GoMap;
    const variables = this.mode.variables(unstructured, now, this.config.context);
    const nowSeconds = Math.floor(now.getTime() / 1000);
    for (const trigger of [...destinations.keys()].sort()) {
      const conditions = this.config.triggers.get(trigger);
      if (conditions === undefined) {
        result.errors.push(`trigger '${trigger}' is not configured`);
        continue;
      }
      for (const condition of conditions) {
        const evaluation = this.evaluate(trigger, condition, variables);
        result.evaluations.push(evaluation);
        if (evaluation.whenError) result.errors.push(`${trigger}[${condition.index}] when: ${evaluation.whenError}`);
        if (evaluation.oncePerError)
          result.errors.push(`${trigger}[${condition.index}] oncePer: ${evaluation.oncePerError}`);
        for (const destination of destinations.get(trigger)!) {
          const key = stateKey({ trigger, conditionKey: condition.key, oncePer: evaluation.oncePer, ...destination });
          const outcome = { trigger, condition: condition.index, destination, stateKey: key };
          const sentAt = state.sentAt(key);
          if (evaluation.unmodelled !== undefined) {
            result.outcomes.push({ ...outcome, outcome: 'not-modelled', error: evaluation.unmodelled });
          } else if (!evaluation.triggered) {
            state.setNotified(key, evaluation.oncePer, false, nowSeconds);
            result.outcomes.push({ ...outcome, outcome: 'not-triggered' });
          } else if (state.setNotified(key, evaluation.oncePer, true, nowSeconds)) {
            try {
              result.deliveries.push(this.send(trigger, condition, destination, evaluation.oncePer, key, variables));
              result.outcomes.push({ ...outcome, outcome: 'sent' });
            } catch (error) {
              state.setNotified(key, evaluation.oncePer, false, nowSeconds); // a no-op for oncePer keys, as upstream
              if (error instanceof NotModelledError || error instanceof OverBudgetError) {
                result.outcomes.push({ ...outcome, outcome: 'not-modelled', error: error.message });
                continue;
              }
              result.errors.push(`${trigger}[${condition.index}] -> ${destination.service}: ${messageOf(error)}`);
              result.outcomes.push({ ...outcome, outcome: 'send-failed', error: messageOf(error) });
            }
          } else {
            result.outcomes.push({ ...outcome, outcome: 'already-sent', ...(sentAt === undefined ? {} : { sentAt }) });
          }
        }
      }
    }
    state.truncate();
    const annotations = { ...(metadata.annotations ?? {}) };
    const serialized = state.serialize();
    if (serialized === undefined) delete annotations[NOTIFIED_ANNOTATION];
    else annotations[NOTIFIED_ANNOTATION] = serialized;
    const { annotations: _previous, ...rest } = metadata;
    result.object = {
      ...result.object,
      metadata: Object.keys(annotations).length > 0 ? { ...rest, annotations } : rest,
    };
    result.notifiedKeys = state.keys();
    return result;
  }

  /** trigger -> destinations, from the subscriptions whose selector matches (deduplicated). */
  private destinations(labels: Readonly<Record<string, string>>): Map<string, Destination[]> {
    const byTrigger = new Map<string, Destination[]>();
    for (const subscription of this.config.subscriptions) {
      if (!subscription.matches(labels)) continue;
      const triggers = subscription.triggers.length > 0 ? subscription.triggers : this.config.defaultTriggers;
      for (const trigger of triggers) {
        const list = byTrigger.get(trigger) ?? [];
        for (const recipientText of subscription.recipients) {
          const [service, ...recipient] = recipientText.split(':');
          const destination = { service: service!, recipient: recipient.join(':') };
          if (!list.some((d) => d.service === destination.service && d.recipient === destination.recipient))
            list.push(destination);
        }
        byTrigger.set(trigger, list);
      }
    }
    return byTrigger;
  }

  private evaluate(trigger: string, condition: LoadedCondition, variables: GoMap): Evaluation {
    let triggered = false;
    let whenError: string | undefined;
    try {
      triggered = evaluate(condition.when, variables, this.options.exprSemantics) === true;
    } catch (error) {
      if (error instanceof NotModelledError)
        return { trigger, condition: condition.index, triggered: false, oncePer: '', unmodelled: error.message };
      whenError = messageOf(error);
    }
    let oncePer = '';
    let oncePerError: string | undefined;
    if (triggered && condition.oncePer !== undefined) {
      try {
        oncePer = formatGoValue(evaluate(condition.oncePer, variables, this.options.exprSemantics));
      } catch (error) {
        if (error instanceof NotModelledError)
          return { trigger, condition: condition.index, triggered: false, oncePer: '', unmodelled: error.message };
        oncePerError = messageOf(error);
      }
    }
    return {
      trigger,
      condition: condition.index,
      triggered,
      oncePer,
      ...(whenError === undefined ? {} : { whenError }),
      ...(oncePerError === undefined ? {} : { oncePerError }),
    };
  }

  private send(
    trigger: string,
    condition: LoadedCondition,
    destination: Destination,
    oncePer: string,
    key: string,
    variables: GoMap,
  ): Delivery {
    const service = this.config.services.get(destination.service);
    if (service === undefined) throw new Error(`service ${destination.service} is not configured`);
    const data: GoMap = { ...variables, serviceType: destination.service, recipient: destination.recipient };
    let message = '';
    let request: { method?: string; path?: string; body?: string } = {};
    for (const name of condition.send) {
      const template = this.config.templates.get(name);
      if (template === undefined) throw new Error(`template ${name} is not configured`);
      if (template.message) message = template.message.execute(data) || message;
      const webhook = template.webhook[destination.service];
      if (webhook) {
        request = {
          ...(webhook.method === undefined ? {} : { method: webhook.method }),
          ...(webhook.path === undefined ? {} : { path: webhook.path }),
          ...(webhook.body === undefined ? {} : { body: webhook.body.execute(data) }),
        };
      }
    }
    const body = request.body ?? message;
    if (service.type !== 'webhook') {
      const to = `${service.type}:${destination.recipient}`;
      return {
        trigger,
        condition: condition.index,
        destination,
        oncePer,
        stateKey: key,
        method: '',
        url: to,
        headers: [],
        body: message,
        json: parseJson(message),
        modelled: false,
      };
    }
    return {
      trigger,
      condition: condition.index,
      destination,
      oncePer,
      stateKey: key,
      method: request.method ?? 'GET',
      url: `${this.substitute(service.url)}${request.path ?? ''}`,
      headers: service.headers.map(({ name, value }) => ({ name, value: this.substitute(value) })),
      body,
      json: parseJson(body),
      modelled: true,
    };
  }

  /** `$key` from the Secret; a missing key leaves the text as it is. */
  private substitute(text: string): string {
    const secrets = this.options.secrets ?? {};
    return text.replace(/\$[\w-]+/g, (reference) => secrets[reference.slice(1)] ?? reference);
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
