/**
 * Expressions reach the YAML as the builder wrote them: multi-line values as block scalars, no `\u0027`-style
 * escapes, each `when`/`oncePer` in the printer's canonical form, and (for the Rollouts ConfigMap) every key
 * byte-identical to what the builder produced for this cluster.
 */
import { isDeepStrictEqual } from 'node:util';
import { isScalar, parse, parseDocument, type Scalar } from 'yaml';
import { isRecord } from '../../is-record';
import { parseExpr } from '../../notifications/expr/parse';
import { printExpr } from '../../notifications/expr/print';
import { rolloutNotifications } from '../../notifications/rollouts/rollout-fact';
import { excerpt } from './engines';
import { BOTH_ENGINES, type NotificationRule, type NotificationsConfigMap, type Problem } from './rule';

export const verbatim: NotificationRule = {
  name: 'verbatim',
  engines: BOTH_ENGINES,
  reads: 'data',
  check: (configMap) => [
    ...blockScalarProblems(configMap),
    ...expressionTextProblems(configMap),
    ...builderProblems(configMap),
  ],
};

function blockScalarProblems({ source, data }: NotificationsConfigMap): Problem[] {
  if (source === undefined) return [];
  const document = parseDocument(source);
  return Object.keys(data).flatMap((key) => {
    const node = document.getIn(['data', key], true);
    return isScalar(node) && String(node.value).includes('\n') && node.type !== 'BLOCK_LITERAL'
      ? [
          {
            message: `data[${JSON.stringify(key)}] is written as a ${String(node.type)} scalar, not a block scalar`,
            fix: 'render multi-line values as literal block scalars (|) so that nothing is escaped',
          },
        ]
      : [];
  });
}

function expressionTextProblems({ data }: NotificationsConfigMap): Problem[] {
  const problems: Problem[] = [];
  for (const [key, text] of Object.entries(data)) {
    if (!key.startsWith('trigger.')) continue;
    const document = parseDocument(text);
    let conditions: unknown;
    try {
      conditions = document.toJS();
    } catch {
      continue; // engine-accepts reports it
    }
    (Array.isArray(conditions) ? conditions : []).forEach((condition, i) => {
      for (const field of ['when', 'oncePer'] as const) {
        const node = document.getIn([i, field], true) as Scalar | undefined;
        const value = isRecord(condition) ? condition[field] : undefined;
        if (typeof value !== 'string') continue;
        const at = `data["${key}"][${i}].${field}`;
        if (/\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}/.test(value) || (node?.source ?? '').includes('\\u')) {
          problems.push({
            message:
              `${at} holds an escape sequence (${excerpt(value)}); the engine would read it literally or lose ` +
              `the quote`,
            fix: 'write the quotes as they are; never pass expressions through JSON escaping',
          });
        }
        try {
          const canonical = printExpr(parseExpr(value));
          if (canonical !== value)
            problems.push({
              message: `${at} ${excerpt(value)} is not what the expression printer writes (${excerpt(canonical)})`,
              fix: 'build the expression with the typed AST and printExpr',
            });
        } catch (error) {
          problems.push({
            message: `${at} does not parse: ${(error as Error).message}`,
            fix: 'build the expression with the typed AST and printExpr',
          });
        }
      }
    });
  }
  return problems;
}

function builderProblems({ engine, data, config }: NotificationsConfigMap): Problem[] {
  if (engine !== 'rollouts') return [];
  const built = rolloutNotifications(config).data;
  // A helm chart writes the subscriptions list again with toYaml: equal as YAML is what the engine reads.
  const sameList = (key: string) =>
    key === 'subscriptions' &&
    built[key] !== undefined &&
    data[key] !== undefined &&
    isDeepStrictEqual(parse(built[key]), parse(data[key]));
  return [...new Set([...Object.keys(built), ...Object.keys(data)])].flatMap((key) =>
    built[key] === data[key] || sameList(key)
      ? []
      : [
          {
            message:
              `data[${JSON.stringify(key)}] differs from what the builder produced for this cluster ` +
              `(${differenceOf(built[key], data[key])})`,
            fix: 'render the ConfigMap from rolloutNotifications(config) without editing its data',
          },
        ],
  );
}

function differenceOf(built: string | undefined, rendered: string | undefined): string {
  if (built === undefined) return 'not built';
  return rendered === undefined ? 'missing' : 'changed on the way to the YAML';
}
