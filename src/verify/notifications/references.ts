/** Every trigger, template and service that a subscription, trigger or template names is defined. */
import { conditions } from './engines';
import { BOTH_ENGINES, type NotificationRule, type Problem } from './rule';

export const references: NotificationRule = {
  name: 'references',
  engines: BOTH_ENGINES,
  reads: 'loaded',
  check({ loaded }) {
    const problems: Problem[] = [];
    loaded.subscriptions.forEach((subscription, i) => {
      for (const trigger of subscription.triggers) {
        if (!loaded.triggers.has(trigger))
          problems.push({
            message: `subscriptions[${i}] subscribes to trigger ${JSON.stringify(trigger)}, which is not defined`,
            fix: `define trigger.${trigger} or fix the name`,
          });
      }
      for (const recipient of subscription.recipients) {
        const service = recipient.split(':')[0]!;
        if (!loaded.services.has(service))
          problems.push({
            message: `subscriptions[${i}] sends to service ${JSON.stringify(service)}, which is not defined`,
            fix: `define service.webhook.${service} or fix the name`,
          });
      }
    });
    for (const trigger of loaded.defaultTriggers) {
      if (!loaded.triggers.has(trigger))
        problems.push({
          message: `defaultTriggers names ${JSON.stringify(trigger)}, which is not defined`,
          fix: `define trigger.${trigger}`,
        });
    }
    for (const { condition, at } of conditions(loaded)) {
      for (const template of condition.send) {
        if (!loaded.templates.has(template))
          problems.push({
            message: `${at}.send names template ${JSON.stringify(template)}, which is not defined`,
            fix: `define template.${template} or fix the name`,
          });
      }
    }
    for (const [name, template] of loaded.templates) {
      for (const service of Object.keys(template.webhook)) {
        if (!loaded.services.has(service))
          problems.push({
            message: `template.${name}.webhook.${service}: no service.webhook.${service}`,
            fix: 'use the name of a defined webhook service',
          });
      }
    }
    return problems;
  },
};
