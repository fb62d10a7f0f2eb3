/**
 * The ConfigMap keys a notifications engine reads, as notifications-engine v0.5.0 pkg/api/config.go
 * (`ParseConfig`) and, for Argo CD, argo-cd util/notification/settings (`getContext`) read them.
 */

export type NotificationsEngine = 'rollouts' | 'argocd';

/** Service types `services.NewService` knows (notifications-engine pkg/services/services.go). */
export const SERVICE_TYPES: ReadonlySet<string> = new Set([
  'awssqs', 'email', 'slack', 'mattermost', 'rocketchat', 'grafana', 'opsgenie', 'webhook', 'telegram', 'github', 'teams',
  'teams-workflows', 'googlechat', 'pushover', 'alertmanager', 'pagerduty', 'pagerdutyv2', 'newrelic', 'webex', 'nats', 'gcppubsub',
]);

/** Sections of a template that the engine renders per service (`services.Notification`'s JSON names). */
export const TEMPLATE_SECTIONS: ReadonlySet<string> = new Set([
  'awssqs', 'gcppubsub', 'email', 'slack', 'mattermost', 'rocketchat', 'teams', 'teams-workflows', 'webhook', 'opsgenie', 'github',
  'alertmanager', 'googlechat', 'pagerduty', 'pagerdutyv2', 'newrelic',
]);

/** Every name glidepath gives its own services, templates and triggers starts with this. */
export const GLIDEPATH_NAME_PREFIX = 'glidepath-';

export type EngineKey =
  | { readonly kind: 'service'; readonly type: string; readonly name: string }
  | { readonly kind: 'template' | 'trigger' | 'serviceDefaultTriggers'; readonly name: string }
  | { readonly kind: 'subscriptions' | 'defaultTriggers' | 'context' };

/** What the engine makes of a data key, or why it reads nothing from it. */
export function classifyKey(engine: NotificationsEngine, key: string): EngineKey | { readonly problem: string } {
  const parts = key.split('.');
  const rest = parts.slice(1).join('.');
  if (key === 'subscriptions' || key === 'defaultTriggers') return { kind: key };
  if (key === 'context') {
    return engine === 'argocd' ? { kind: 'context' } : { problem: 'Argo Rollouts has no context key (only Argo CD reads it)' };
  }
  if (key.startsWith('service.')) {
    if (parts.length > 3 || rest === '') return { problem: `invalid service key; the engine expects service.<type> or service.<type>.<name>` };
    const type = parts[1]!;
    if (!SERVICE_TYPES.has(type)) return { problem: `service type '${type}' is not supported (known: ${[...SERVICE_TYPES].join(', ')})` };
    return { kind: 'service', type, name: parts[2] ?? type };
  }
  for (const [prefix, kind] of [['template.', 'template'], ['trigger.', 'trigger'], ['defaultTriggers.', 'serviceDefaultTriggers']] as const) {
    if (key.startsWith(prefix)) return rest === '' ? { problem: `${prefix}<name> needs a name` } : { kind, name: rest };
  }
  if (engine === 'argocd' && key === 'config.yaml') {
    return { problem: 'the legacy argocd-notifications config.yaml is not carried; write its services, templates, triggers and subscriptions as service.*, template.*, trigger.* and subscriptions keys' };
  }
  const allowed = ['service.<type>[.<name>]', 'template.<name>', 'trigger.<name>', 'defaultTriggers', 'defaultTriggers.<service>', 'subscriptions'];
  return { problem: `the engine reads nothing from this key; allowed: ${[...allowed, ...(engine === 'argocd' ? ['context'] : [])].join(', ')}` };
}
