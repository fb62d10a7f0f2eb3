/** The webhook service defaults to GET and adds no Content-Type: every request must say POST and JSON. */
import { BOTH_ENGINES, type NotificationRule, type Problem } from './rule';

export const webhookPostJson: NotificationRule = {
  name: 'webhook-post-json',
  engines: BOTH_ENGINES,
  reads: 'loaded',
  check({ loaded }) {
    const problems: Problem[] = [];
    for (const [name, template] of loaded.templates) {
      for (const [service, request] of Object.entries(template.webhook)) {
        if (request.method !== 'POST') {
          problems.push({
            message:
              `template.${name}.webhook.${service}.method is ` +
              `${JSON.stringify(request.method) ?? 'not set (the engine defaults to GET)'}`,
            fix: 'set method: POST',
          });
        }
      }
    }
    for (const [name, service] of loaded.services) {
      const contentType = service.headers.find((header) => header.name.toLowerCase() === 'content-type');
      if (!contentType?.value.startsWith('application/json')) {
        problems.push({
          message:
            `service.webhook.${name} has ` +
            (contentType
              ? `Content-Type ${JSON.stringify(contentType.value)}`
              : 'no Content-Type header (the engine adds none)'),
          fix: 'add the header Content-Type: application/json',
        });
      }
    }
    return problems;
  },
};
