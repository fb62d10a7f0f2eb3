/**
 * The ConfigMap keys a notifications engine reads, as notifications-engine v0.5.0 pkg/api/config.go
 * (`ParseConfig`) and, for Argo CD, argo-cd util/notification/settings (`getContext`) read them.
 */

export type NotificationsEngine = 'rollouts' | 'argocd';

/** Every name glidepath gives its own services, templates and triggers starts with this. */
export const GLIDEPATH_NAME_PREFIX = 'glidepath-';

export type EngineKey =
  | { readonly kind: 'service'; readonly type: string; readonly name: string }
  | { readonly kind: 'template' | 'trigger' | 'serviceDefaultTriggers'; readonly name: string }
  | { readonly kind: 'subscriptions' | 'defaultTriggers' | 'context' };

/**
 * What the engine makes of a data key, or why it reads nothing from it: a `warning` when the engine loads the
 * ConfigMap anyway (it logs and skips a key it does not know), else the engine refuses the whole ConfigMap.
 */
export function classifyKey(
  engine: NotificationsEngine,
  key: string,
): EngineKey | { readonly problem: string; readonly warning?: true } {
  const parts = key.split('.');
  const rest = parts.slice(1).join('.');
  if (key === 'subscriptions' || key === 'defaultTriggers') return { kind: key };
  if (key === 'context') {
    return engine === 'argocd'
      ? { kind: 'context' }
      : {
          problem: 'Argo Rollouts reads nothing from a context key (only Argo CD does); the engine skips it',
          warning: true,
        };
  }
  if (key.startsWith('service.')) {
    if (parts.length > 3 || rest === '')
      return { problem: `invalid service key; the engine expects service.<type> or service.<type>.<name>` };
    return { kind: 'service', type: parts[1]!, name: parts[2] ?? parts[1]! };
  }
  for (const [prefix, kind] of [
    ['template.', 'template'],
    ['trigger.', 'trigger'],
    ['defaultTriggers.', 'serviceDefaultTriggers'],
  ] as const) {
    // `template.` names a template "": the engine loads it, and nothing can send it.
    if (key.startsWith(prefix)) return { kind, name: rest };
  }
  if (engine === 'argocd' && key === 'config.yaml') {
    return {
      problem:
        'the legacy argocd-notifications config.yaml is not carried; write its services, templates, triggers ' +
        'and subscriptions as service.*, template.*, trigger.* and subscriptions keys',
    };
  }
  const allowed = [
    'service.<type>[.<name>]',
    'template.<name>',
    'trigger.<name>',
    'defaultTriggers',
    'defaultTriggers.<service>',
    'subscriptions',
  ];
  return {
    problem:
      `the engine reads nothing from this key and skips it (a typo?); it reads ` +
      `${[...allowed, ...(engine === 'argocd' ? ['context'] : [])].join(', ')}`,
    warning: true,
  };
}
