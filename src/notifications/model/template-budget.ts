/**
 * What one execution of a template may cost in the model: the engine has no such limit (Go's text/template renders
 * whatever it is asked to, for as long as it takes), so a template past it is not evaluated here, never judged. A
 * team's template with three nested `range` over a list of 400 items took 38 s and 1.35 GB without it.
 */
import { NOTIFCHECK_POINTER } from './not-modelled';

export interface TemplateBudget {
  /** Actions, texts and iterations of `range` executed. */
  readonly steps: number;
  /** Characters of output. */
  readonly outputChars: number;
}

/** Ample for real notifications: the rendered Rollout fact body takes 36 steps and writes under 900 characters. */
export const TEMPLATE_BUDGET: TemplateBudget = { steps: 200_000, outputChars: 1024 * 1024 };

/** A template's execution stopped at the budget: what the engine would do with it is not known here. */
export class OverBudgetError extends Error {
  constructor(template: string, limit: number, unit: string) {
    const digits = String(limit).replace(/\B(?=(\d{3})+$)/g, ',');
    super(
      `over budget: the template ${template} went past ${digits} ${unit}, the model's budget per template ` +
        '(docs/facts.md); ' +
        `the engine has no such limit; ${NOTIFCHECK_POINTER}`,
    );
    this.name = 'OverBudgetError';
  }
}
