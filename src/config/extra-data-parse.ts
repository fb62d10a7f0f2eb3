/**
 * Reads a team's own ConfigMap keys (`extraData`) the way the engine reads them: notifications-engine v0.5.0
 * `ParseConfig` (pkg/api/config.go) unmarshals each value with sigs.k8s.io/yaml, and `NewAPI` (pkg/api/api.go) then
 * builds every service, compiles every trigger's `when` and `oncePer` with expr, and parses every template with
 * text/template and sprig. One failing key makes the engine refuse the whole ConfigMap, glidepath's keys with it.
 */
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { isRecord } from '../is-record';
import { ExprSyntaxError, parseExpr } from '../notifications/expr/parse';
import { LabelSelectorError, parseLabelSelector } from './label-selector';
import { classifyKey, GLIDEPATH_NAME_PREFIX, TEMPLATE_SECTIONS, type EngineKey, type NotificationsEngine } from './engine-keys';
import { duplicateKeyOffsets } from './parse-cluster-yaml';
import { templateSyntaxProblem } from './template-syntax';

export interface ExtraDataProblem {
  readonly key: string;
  /** 1-based line inside the value, when the problem is at one. */
  readonly line?: number;
  readonly message: string;
}

/** A parsed value with a way to find the line of any of its nodes. */
interface Parsed {
  readonly value: unknown;
  readonly root: Node | null;
  readonly lineOf: (node: unknown) => number | undefined;
}

export function extraDataProblems(engine: NotificationsEngine, data: Readonly<Record<string, string>>): ExtraDataProblem[] {
  return Object.entries(data).flatMap(([key, text]) => keyProblems(engine, key, text).map((p) => ({ key, ...p })));
}

function keyProblems(engine: NotificationsEngine, key: string, text: string): Omit<ExtraDataProblem, 'key'>[] {
  const classified = classifyKey(engine, key);
  if ('problem' in classified) return [{ message: classified.problem }];
  const ownName = 'name' in classified && classified.name.startsWith(GLIDEPATH_NAME_PREFIX);
  if (ownName) return [{ message: `names starting "${GLIDEPATH_NAME_PREFIX}" are glidepath's own; choose another name` }];
  const parsed = parseValue(text);
  if ('message' in parsed) return [parsed];
  return valueProblems(classified, parsed);
}

function parseValue(text: string): Parsed | { line?: number; message: string } {
  const lineCounter = new LineCounter();
  // logLevel 'error': a warning (an unresolved tag such as `!when`) is refused below instead of printed by node.
  // Unique keys are checked once per mapping (the library's own check is quadratic: 70,000 context keys took a minute).
  const document = parseDocument(text, { version: '1.1', uniqueKeys: false, lineCounter, prettyErrors: false, logLevel: 'error' });
  const error = document.errors[0] ?? document.warnings[0];
  if (error !== undefined) {
    const line = lineCounter.linePos(error.pos[0]).line;
    return { line, message: `not valid YAML: ${error.message.split('\n')[0]}` };
  }
  const duplicate = duplicateKeyOffsets(document)[0];
  if (duplicate !== undefined) return { line: lineCounter.linePos(duplicate).line, message: 'not valid YAML: Map keys must be unique' };
  const lineOf = (node: unknown): number | undefined => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range === undefined ? undefined : lineCounter.linePos(range[0]).line;
  };
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    return { message: `not valid YAML: ${(error as Error).message}` };
  }
  return { value, root: document.contents, lineOf };
}

type Problem = Omit<ExtraDataProblem, 'key'>;

function valueProblems(key: EngineKey, parsed: Parsed): Problem[] {
  switch (key.kind) {
    case 'service':
      return isRecordOrEmpty(parsed.value) ? [] : [{ message: `a service is a YAML mapping of its settings, got ${describe(parsed.value)}` }];
    case 'template':
      return templateProblems(parsed);
    case 'trigger':
      return triggerProblems(parsed);
    case 'subscriptions':
      return subscriptionProblems(parsed);
    case 'defaultTriggers':
    case 'serviceDefaultTriggers':
      return stringListProblems(parsed.value, 'a list of trigger names');
    case 'context':
      return isRecordOrEmpty(parsed.value) && Object.values(parsed.value ?? {}).every((v) => typeof v === 'string')
        ? []
        : [{ message: 'context is a mapping of names to strings (quote numbers and booleans)' }];
  }
}

function templateProblems(parsed: Parsed): Problem[] {
  if (!isRecordOrEmpty(parsed.value)) return [{ message: `a template is a YAML mapping (message, webhook, slack, ...), got ${describe(parsed.value)}` }];
  const template = parsed.value ?? {};
  const problems: Problem[] = [];
  const check = (path: string, value: unknown, node: unknown) => {
    if (typeof value !== 'string') return;
    const problem = templateSyntaxProblem(value);
    if (problem === undefined) return;
    const start = parsed.lineOf(node);
    const blockOffset = isBlockScalar(node) ? 1 : 0;
    problems.push({
      line: start === undefined ? undefined : start + blockOffset + problem.line - 1,
      message: `${path} does not parse as a Go template: ${problem.message}`,
    });
  };
  if (template.message !== undefined && typeof template.message !== 'string') problems.push({ message: 'message must be a string' });
  check('message', template.message, nodeAt(parsed.root, ['message']));
  for (const [section, content] of Object.entries(template)) {
    if (!TEMPLATE_SECTIONS.has(section)) continue;
    if (!isRecordOrEmpty(content)) {
      problems.push({ line: parsed.lineOf(nodeAt(parsed.root, [section])), message: `${section} must be a mapping` });
      continue;
    }
    walkStrings(content, [section], (path, value) => check(path.join('.'), value, nodeAt(parsed.root, path)));
  }
  return problems;
}

function triggerProblems(parsed: Parsed): Problem[] {
  if (!Array.isArray(parsed.value)) return [{ message: `a trigger is a YAML list of conditions (when, oncePer, send), got ${describe(parsed.value)}` }];
  const problems: Problem[] = [];
  parsed.value.forEach((condition, i) => {
    const at = (field?: string) => parsed.lineOf(nodeAt(parsed.root, field === undefined ? [i] : [i, field]));
    if (!isRecordOrEmpty(condition)) {
      problems.push({ line: at(), message: `[${i}] must be a mapping (when, oncePer, send, description)` });
      return;
    }
    for (const field of ['when', 'oncePer', 'description'] as const) {
      const value = condition?.[field];
      if (value !== undefined && value !== null && typeof value !== 'string') {
        problems.push({ line: at(field), message: `[${i}].${field} must be a string, got ${describe(value)} (quote it)` });
      }
    }
    for (const field of ['when', 'oncePer'] as const) {
      const text = condition?.[field];
      if (typeof text !== 'string' || text === '') continue;
      try {
        parseExpr(text);
      } catch (error) {
        if (!(error instanceof ExprSyntaxError)) throw error;
        problems.push({ line: at(field), message: `[${i}].${field} does not compile: ${error.message}` });
      }
    }
    problems.push(...stringListProblems(condition?.send ?? [], 'a list of template names', `[${i}].send`, at('send')));
  });
  return problems;
}

function subscriptionProblems(parsed: Parsed): Problem[] {
  if (!Array.isArray(parsed.value)) return [{ message: `subscriptions is a YAML list of {recipients, triggers, selector}, got ${describe(parsed.value)}` }];
  const problems: Problem[] = [];
  parsed.value.forEach((subscription, i) => {
    const line = parsed.lineOf(nodeAt(parsed.root, [i]));
    if (!isRecordOrEmpty(subscription)) {
      problems.push({ line, message: `[${i}] must be a mapping` });
      return;
    }
    for (const field of ['recipients', 'triggers'] as const) {
      const list = subscription?.[field] ?? [];
      problems.push(...stringListProblems(list, `a list of ${field === 'recipients' ? 'services' : 'trigger names'}`, `[${i}].${field}`, line));
      for (const name of Array.isArray(list) ? list : []) {
        if (typeof name === 'string' && name.startsWith(GLIDEPATH_NAME_PREFIX)) {
          problems.push({ line, message: `[${i}].${field} names ${name}: glidepath's own services and triggers are not for other subscriptions` });
        }
      }
    }
    const selector = subscription?.selector;
    if (selector !== undefined && selector !== null) {
      if (typeof selector !== 'string') problems.push({ line, message: `[${i}].selector must be a label selector string, e.g. team=payments` });
      else {
        try {
          parseLabelSelector(selector);
        } catch (error) {
          if (!(error instanceof LabelSelectorError)) throw error;
          problems.push({ line, message: `[${i}].selector ${JSON.stringify(selector)} is not a label selector: ${error.message}` });
        }
      }
    }
  });
  return problems;
}

function stringListProblems(value: unknown, what: string, field = '', line?: number): Problem[] {
  const prefix = field === '' ? '' : `${field} `;
  if (value === null) return [];
  if (!Array.isArray(value)) return [{ line, message: `${prefix}must be ${what}, got ${describe(value)}` }];
  return value.some((item) => typeof item !== 'string') ? [{ line, message: `${prefix}must be ${what} (strings only)` }] : [];
}

function walkStrings(value: unknown, path: (string | number)[], visit: (path: (string | number)[], value: string) => void): void {
  if (typeof value === 'string') visit(path, value);
  else if (Array.isArray(value)) value.forEach((item, i) => walkStrings(item, [...path, i], visit));
  else if (isRecord(value)) for (const [key, item] of Object.entries(value)) walkStrings(item, [...path, key], visit);
}

function nodeAt(root: Node | null, path: readonly (string | number)[]): unknown {
  let node: unknown = root;
  for (const step of path) {
    if (isMap(node)) node = node.get(step, true);
    else if (isSeq(node) && typeof step === 'number') node = node.get(step, true);
    else return undefined;
  }
  return node;
}

function isBlockScalar(node: unknown): boolean {
  const type = (node as { type?: string } | undefined)?.type;
  return type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED';
}

/** A mapping, or an empty value (sigs.k8s.io/yaml leaves the struct empty for `null` and ""). */
function isRecordOrEmpty(value: unknown): value is Record<string, unknown> | null | undefined {
  return value === null || value === undefined || isRecord(value);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (isRecord(value)) return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
