/** Builds the ConfigMap `data` of a notifications engine from the typed spec, checking every cross-reference. */
import { stringifyForGo } from '../go-yaml';
import { renderBodyTemplate } from '../body/json-body';
import { printExpr } from '../expr/print';
import type {
  LabelSelector,
  NotificationsSpec,
  NotificationService,
  NotificationTemplate,
  TriggerCondition,
} from './types';

export class NotificationsConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationsConfigError';
  }
}

/** A checked notifications config; `data` is what goes into the ConfigMap. */
export interface NotificationsConfig {
  readonly data: Readonly<Record<string, string>>;
}

/** Names of services, templates and triggers: what `service.webhook.<name>` and friends accept. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** Argo Rollouts sends Kubernetes events as `on-<reason>` triggers on a second path: never collide with it. */
const EVENT_TRIGGER_PREFIX = 'on-';

export function defineNotifications<Service extends string, Template extends string, Trigger extends string>(
  spec: NotificationsSpec<Service, Template, Trigger>,
): NotificationsConfig {
  check(spec);
  const data: Record<string, string> = {};
  for (const [name, service] of entries<NotificationService>(spec.services))
    data[`service.${service.type}.${name}`] = yaml(serviceData(service));
  for (const [name, template] of entries<NotificationTemplate<string>>(spec.templates))
    data[`template.${name}`] = yaml(templateData(template));
  for (const [name, conditions] of entries<readonly TriggerCondition<string>[]>(spec.triggers)) {
    data[`trigger.${name}`] = yaml(conditions.map(conditionData));
  }
  data.subscriptions = yaml(
    spec.subscriptions.map((subscription) => ({
      recipients: [...subscription.recipients],
      triggers: [...subscription.triggers],
      selector: selectorText(subscription.selector),
    })),
  );
  if (spec.context !== undefined) data.context = yaml({ ...spec.context });
  return { data };
}

function check(spec: NotificationsSpec<string, string, string>): void {
  const services = new Set(Object.keys(spec.services));
  const templates = new Set(Object.keys(spec.templates));
  const triggers = new Set(Object.keys(spec.triggers));
  const problems: string[] = [];
  for (const [kind, names] of [
    ['service', services],
    ['template', templates],
    ['trigger', triggers],
  ] as const) {
    for (const name of names)
      if (!NAME.test(name))
        problems.push(`${kind} ${JSON.stringify(name)}: not a valid name (letters, digits, ".", "_", "-")`);
  }
  for (const name of triggers) {
    if (name.startsWith(EVENT_TRIGGER_PREFIX)) {
      problems.push(
        `trigger ${name}: names starting with "on-" collide with Argo Rollouts' event triggers; drop the prefix`,
      );
    }
  }
  for (const [name, template] of entries<NotificationTemplate<string>>(spec.templates)) {
    for (const service of Object.keys(template.webhook)) {
      if (!services.has(service))
        problems.push(`template ${name}: webhook.${service} names no service (services: ${[...services].join(', ')})`);
    }
  }
  for (const [name, conditions] of entries<readonly TriggerCondition<string>[]>(spec.triggers)) {
    conditions.forEach((condition, i) => {
      for (const template of condition.send) {
        if (!templates.has(template))
          problems.push(
            `trigger ${name}[${i}]: sends ${template}, which is not a template (templates: ` +
              `${[...templates].join(', ')})`,
          );
      }
    });
  }
  spec.subscriptions.forEach((subscription, i) => {
    for (const trigger of subscription.triggers) {
      if (!triggers.has(trigger))
        problems.push(`subscriptions[${i}]: trigger ${trigger} is not defined (triggers: ${[...triggers].join(', ')})`);
    }
    for (const recipient of subscription.recipients) {
      if (!services.has(recipient))
        problems.push(
          `subscriptions[${i}]: recipient ${recipient} is not a service (services: ${[...services].join(', ')})`,
        );
    }
    if (Object.keys(subscription.selector.matchLabels).length === 0)
      problems.push(`subscriptions[${i}]: an empty selector would select every object`);
  });
  if (problems.length > 0)
    throw new NotificationsConfigError(`invalid notifications config:\n  ${problems.join('\n  ')}`);
}

function serviceData(service: NotificationService): unknown {
  return { url: service.url, headers: service.headers.map(({ name, value }) => ({ name, value })) };
}

function templateData(template: NotificationTemplate<string>): unknown {
  const webhook = Object.fromEntries(
    Object.entries(template.webhook).flatMap(([service, request]) =>
      request === undefined
        ? []
        : [
            [
              service,
              {
                method: request.method,
                ...(request.path === undefined ? {} : { path: request.path }),
                body: renderBodyTemplate(request.body),
              },
            ],
          ],
    ),
  );
  return { webhook };
}

function conditionData(condition: TriggerCondition<string>): unknown {
  return {
    description: condition.description,
    when: printExpr(condition.when),
    ...(condition.oncePer === undefined ? {} : { oncePer: printExpr(condition.oncePer) }),
    send: [...condition.send],
  };
}

export function selectorText(selector: LabelSelector): string {
  return Object.entries(selector.matchLabels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

function entries<T>(record: Readonly<Record<string, unknown>>): [string, T][] {
  return Object.entries(record) as [string, T][];
}

/** The YAML text of one ConfigMap value, as every builder writes it. */
export function yaml(value: unknown): string {
  return stringifyForGo(value, { lineWidth: 0 });
}
