/** Every template executes, and every webhook body is valid JSON, for odd but real objects. */
import { OverBudgetError } from '../../notifications/model/template-budget';
import { ENGINES, EPOCH, excerpt, variables } from './engines';
import { BOTH_ENGINES, type NotificationRule, type Problem } from './rule';

export const templateJson: NotificationRule = {
  name: 'template-json',
  engines: BOTH_ENGINES,
  reads: 'loaded',
  check({ loaded, engine }) {
    const problems: Problem[] = [];
    for (const [name, template] of loaded.templates) {
      const parts = [
        ...(template.message ? [{ at: `template.${name}.message`, template: template.message, json: false }] : []),
        ...Object.entries(template.webhook).flatMap(([service, request]) =>
          request.body ? [{ at: `template.${name}.webhook.${service}.body`, template: request.body, json: true }] : [],
        ),
      ];
      for (const part of parts) {
        for (const odd of ENGINES[engine].oddObjects) {
          let text: string;
          try {
            text = part.template.execute({
              ...variables(engine, odd.object, EPOCH, loaded.context),
              serviceType: 'webhook',
              recipient: 'glidepath',
            });
          } catch (error) {
            // Past the model's budget is no verdict of the engine's: nothing to say of the template (docs/facts.md).
            if (error instanceof OverBudgetError) continue;
            problems.push({
              message:
                `${part.at} fails for ${odd.name}: ${(error as Error).message} (a nil map in a template chain ` +
                `is an error; nothing is sent)`,
              fix:
                'read possibly missing fields through the body builder (field(...) with a fallback), never by a ' +
                'bare chain',
            });
            continue;
          }
          if (part.json && !isJson(text)) {
            problems.push({
              message: `${part.at} is not valid JSON for ${odd.name}: ${excerpt(text)}`,
              fix: 'emit every value through toJson (the body builder does); never paste a value into quotes',
            });
          }
        }
      }
    }
    return problems;
  },
};

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
