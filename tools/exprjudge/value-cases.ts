/**
 * The value cases of `npm run judge:expr`: expressions whose value the engine prints as a oncePer key, evaluated by
 * glidepath's model of expr (what verify and facts run) and by each release's real expr, at fixed clocks, on the
 * steady object of verify. They cover what differs between the releases: `/` of integers, `%`, floats as `%v`.
 * A case the model does not evaluate, or that uses syntax the release lacks, is left out.
 */
import type { Engine, EngineRelease } from '../../src/notifications/engine-releases';
import { checkerRules, exprSemantics, missingFeatures } from '../../src/notifications/engine-versions';
import { literalTypeProblem } from '../../src/notifications/expr/literal-types';
import { featuresOf } from '../../src/notifications/expr/features';
import { parseExpr } from '../../src/notifications/expr/parse';
import { ENGINES, evaluateText, variables } from '../../src/verify/notifications/engines';

const MODEL_ENGINE = { 'argo-rollouts': 'rollouts', 'argo-cd': 'argocd' } as const;
const ROOT: Readonly<Record<Engine, string>> = { 'argo-rollouts': 'rollout', 'argo-cd': 'app' };

const EXPRESSIONS = (root: string): string[] => [
  '7 / 2',
  '7 / 2.0',
  '7.5 / 2',
  '1 / 3',
  '2 * 3 / 4',
  '7 / 2 * 2',
  '10 - 4 / 2',
  '123456789 / 1000',
  '7 % 3',
  '7 / (2 - 2)',
  '7 % (2 - 2)',
  '0.1 + 0.2',
  '1e6 / 1',
  'time.Now().Unix() / 60',
  'time.Now().Unix() / 7',
  'time.Now().Unix() / 3600',
  'time.Now().Unix() / 60.0',
  'time.Now().Unix() - time.Now().Unix() % 3600',
  'time.Now().Unix() % 60',
  'string(time.Now().Unix() / 60)',
  'string(int(time.Now().Unix() / 60))',
  `${root}.metadata.generation / 2`,
  `${root}.metadata.generation * 1.5`,
  `${root}.metadata.generation - 1`,
  `${root}.metadata.generation % 3`,
  `${root}.metadata.generation % 0`,
  `${root}.metadata.generation / 0`,
  `${root}.metadata.generation % (2 - 2)`,
  `${root}.metadata.generation * 1.0 % 2`,
  `(${root}.metadata.generation + 0.5) % 2`,
  `not (${root}.metadata.generation / 2)`,
  `not (${root}.metadata.generation * 1.0)`,
  `not (${root}.metadata.generation + 1)`,
  `(${root}.metadata.generation > 1 ? 1.5 : 1) % 2`,
  `${root}.metadata.generation == nil or ${root}.metadata.generation * 1.0 % 2 == 0`,
  `(${root}.metadata.generation > 1 ? ${root}.metadata.generation / 2 : 1) % 2`,
  `-(${root}.metadata.generation / 2) % 2`,
  `${root}.metadata.generation == 4`,
  `${root}.metadata.generation == 4.0`,
  `${root}.metadata.generation > 3.5`,
  `${root}.metadata.name + "-" + ${root}.metadata.namespace`,
  `${root}.metadata.labels`,
  `${root}.metadata.nope == nil`,
  `string(${root}.metadata.generation)`,
  `string(${root}.metadata.labels)`,
  '"a" + "b"',
  '"a" + 1',
  '1 == 1.0',
  '2 > 1.5',
  '"x" in ["x", "y"]',
  '1 in [1, 2]',
  'not true',
  '1 < 2 and 3 > 2',
  'int(7.9)',
  'float(7)',
  'string(7.5)',
  'string(true)',
  'string(nil)',
  'string(1e21)',
  'string(0.000001)',
  '[1, "a", 2.5]',
];

/** The clocks of each case: verify's epoch, a time with milliseconds, and an older one. */
const CLOCKS = [Date.UTC(2026, 9, 6, 1, 0, 0), Date.UTC(2026, 11, 1, 9, 0, 7, 250), Date.UTC(2001, 8, 9, 1, 46, 40)];

export interface ValueCase {
  readonly ref: string;
  readonly engine: Engine;
  readonly vars: readonly string[];
  readonly expr: string;
  readonly object: Record<string, unknown>;
  readonly nowMillis: number;
  /** What the model prints: the value as `%v`, or `error: ...`. */
  readonly model: string;
}

export function valueCases(row: EngineRelease, label: string): ValueCase[] {
  const engine = MODEL_ENGINE[row.engine];
  const object = ENGINES[engine].steadyObject.object;
  return EXPRESSIONS(ROOT[row.engine]).flatMap((text) => {
    const expr = parseExpr(text);
    if (missingFeatures(row, featuresOf([expr])).length > 0) return [];
    // What the model says the release's checker refuses never runs.
    const refused = literalTypeProblem(expr, checkerRules(row));
    return CLOCKS.flatMap((nowMillis) => {
      const model =
        refused === undefined
          ? evaluateText(expr, variables(engine, object, nowMillis), exprSemantics(row))
          : `error: ${refused}`;
      if (model.startsWith('error: the engine model does not cover')) return [];
      const at = new Date(nowMillis).toISOString();
      return [
        {
          ref: `${label} | ${text} at ${at}`,
          engine: row.engine,
          vars: row.vars,
          expr: text,
          object,
          nowMillis,
          model,
        },
      ];
    });
  });
}

/** The model agrees when both print the same value, or both fail (the texts of errors differ between releases). */
export function agrees(model: string, real: string): boolean {
  return model.startsWith('error: ') ? real.startsWith('error: ') : model === real;
}
