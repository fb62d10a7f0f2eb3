/**
 * The notifications engine's ConfigMap, typed: services, templates, triggers and subscriptions, checked against
 * each other. `defineNotifications` infers the names from the object keys, so a subscription naming a trigger
 * that does not exist, a trigger sending a template that does not exist, or a template for an unknown service
 * is a type error; the same checks run again when the config is built (for names computed at runtime).
 */
import type { Expr } from '../expr/ast';
import type { JsonBody } from '../body/json-body';

export interface HttpHeader {
  readonly name: string;
  /** Literal text; `$key` is replaced by the engine from the notifications Secret. */
  readonly value: string;
}

/** `service.webhook.<name>`. */
export interface WebhookService {
  readonly type: 'webhook';
  /** Absolute URL; a template's `path` is appended to it. */
  readonly url: string;
  readonly headers: readonly HttpHeader[];
}

export type NotificationService = WebhookService;

/** `webhook.<service>` of a template. The engine's default method is GET: name it. */
export interface WebhookRequest {
  readonly method: 'POST' | 'PUT' | 'PATCH';
  /** Appended to the service URL. @default none */
  readonly path?: string;
  readonly body: JsonBody;
}

/** `template.<name>`: what one notification sends to each webhook service. */
export interface NotificationTemplate<Service extends string> {
  readonly webhook: Readonly<Partial<Record<Service, WebhookRequest>>>;
}

/** One condition of `trigger.<name>`. */
export interface TriggerCondition<Template extends string> {
  readonly description: string;
  /** Must evaluate to true to send (an evaluation error counts as false). */
  readonly when: Expr;
  /** Send once per distinct value (its `%v`); the engine keeps these keys until the annotation is removed. */
  readonly oncePer?: Expr;
  readonly send: readonly [Template, ...Template[]];
}

/** A label selector in Kubernetes' `k=v,k2=v2` form. */
export interface LabelSelector {
  readonly matchLabels: Readonly<Record<string, string>>;
}

export interface Subscription<Trigger extends string, Service extends string> {
  /** Service names (a webhook has no recipient part). */
  readonly recipients: readonly [Service, ...Service[]];
  readonly triggers: readonly [Trigger, ...Trigger[]];
  readonly selector: LabelSelector;
}

export interface NotificationsSpec<Service extends string, Template extends string, Trigger extends string> {
  readonly services: Readonly<Record<Service, NotificationService>>;
  readonly templates: Readonly<Record<Template, NotificationTemplate<NoInfer<Service>>>>;
  readonly triggers: Readonly<
    Record<Trigger, readonly [TriggerCondition<NoInfer<Template>>, ...TriggerCondition<NoInfer<Template>>[]]>
  >;
  readonly subscriptions: readonly Subscription<NoInfer<Trigger>, NoInfer<Service>>[];
  /** Argo CD's `context` key (kept verbatim). @default none */
  readonly context?: Readonly<Record<string, string>>;
}
