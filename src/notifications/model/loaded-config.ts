/** A notifications ConfigMap as the engine holds it once loaded (src/notifications/configmap/ reads it). */
import type { Expr } from '../expr/ast';
import type { GoTemplate } from './go-template';

export interface LoadedService {
  readonly name: string;
  /** `webhook`, `slack`, ...: only webhook requests are modelled; the others are reported as sent, body unmodelled. */
  readonly type: string;
  /** Webhook only (empty for the other types). */
  readonly url: string;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
  /** The `$key` references of its settings, which the engine substitutes from the notifications Secret. */
  readonly secretReferences: readonly string[];
}

export interface LoadedWebhookRequest {
  readonly method?: string;
  readonly path?: string;
  readonly body?: GoTemplate;
}

export interface LoadedTemplate {
  readonly name: string;
  readonly message?: GoTemplate;
  readonly webhook: Readonly<Record<string, LoadedWebhookRequest>>;
}

export interface LoadedCondition {
  readonly index: number;
  /** `[<i>].<base64url(sha1(when))>`. */
  readonly key: string;
  readonly whenText: string;
  readonly when: Expr;
  readonly oncePerText?: string;
  readonly oncePer?: Expr;
  readonly send: readonly string[];
}

export interface LoadedSubscription {
  readonly recipients: readonly string[];
  readonly triggers: readonly string[];
  readonly selectorText: string;
  readonly matches: (labels: Readonly<Record<string, string>>) => boolean;
}

export interface LoadedConfig {
  readonly services: ReadonlyMap<string, LoadedService>;
  readonly templates: ReadonlyMap<string, LoadedTemplate>;
  readonly triggers: ReadonlyMap<string, readonly LoadedCondition[]>;
  readonly subscriptions: readonly LoadedSubscription[];
  readonly defaultTriggers: readonly string[];
  readonly context: Readonly<Record<string, string>>;
}
