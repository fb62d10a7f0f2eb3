/**
 * Notification lint on the rendered `argo-rollouts-notification-configmap` and `argocd-notifications-cm`, with the
 * expression parser and engine model of src/notifications/ (read as the engine reads them: every key parsed, every
 * expression evaluated and every template executed against odd but real objects).
 */
import { isDeepStrictEqual } from 'node:util';
import { isScalar, parse, parseDocument, type Scalar } from 'yaml';
import { childrenOf, type Expr } from '../notifications/expr/ast';
import { parseExpr } from '../notifications/expr/parse';
import { printExpr } from '../notifications/expr/print';
import { splitOwnedData } from '../notifications/config/extra-data';
import { ConfigLoadError, loadConfigData, type LoadedConfig } from '../notifications/model/config-map';
import { evaluate } from '../notifications/model/expr-eval';
import { ARGOCD_MODE, ROLLOUTS_MODE, type EngineMode } from '../notifications/model/modes';
import { formatGoValue, fromJson, type GoMap } from '../notifications/model/values';
import { rolloutNotifications, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../notifications/rollouts/rollout-fact';
import { ODD_APPLICATIONS, ODD_ROLLOUTS } from './odd-objects';
import { isRecord, objectRef, Tally, type FamilyReport, type RenderedObject, type VerifyContext } from './types';

type Problem = { message: string; fix: string };
export type Engine = 'rollouts' | 'argocd';

const ARGOCD_NOTIFICATIONS_CONFIGMAP = 'argocd-notifications-cm';
/** Argo CD's default `timeout.reconciliation` (its resync), for the argocd heartbeat check. */
const ARGOCD_RESYNC_SECONDS = 180;
/** A fixed, deterministic clock for evaluating time buckets. */
const EPOCH = Date.UTC(2026, 9, 6, 1, 0, 0);
const GUARD = 'rollout.status?.observedGeneration == string(rollout.metadata.generation)';
const GUARD_SWAPPED = 'string(rollout.metadata.generation) == rollout.status?.observedGeneration';

interface Subject {
  readonly engine: Engine;
  readonly ref: string;
  readonly object: RenderedObject;
  readonly data: Readonly<Record<string, string>>;
}

export function checkNotifications(objects: readonly RenderedObject[], context: VerifyContext): FamilyReport {
  const tally = new Tally('notifications');
  for (const object of objects) {
    const subject = notificationSubject(object, context);
    if (!subject) continue;
    const { ref } = subject;
    tally.checkEach(ref, 'verbatim', () => verbatimProblems(subject, context));
    let loaded: LoadedConfig;
    try {
      loaded = loadConfigData(subject.data);
    } catch (error) {
      if (!(error instanceof ConfigLoadError)) throw error;
      tally.checkEach(ref, 'engine-accepts', () =>
        error.problems.map((problem) => ({ message: `the engine would reject the whole ConfigMap: ${problem}`, fix: 'build this key with the typed builders in src/notifications/' })),
      );
      continue;
    }
    tally.checkEach(ref, 'engine-accepts', () => []);
    tally.checkEach(ref, 'trigger-names', () =>
      [...loaded.triggers.keys()]
        .filter((name) => name.startsWith('on-'))
        .map((name) => ({
          message: `trigger.${name} starts with "on-", the prefix of the triggers Argo Rollouts makes from Kubernetes events (a second path that ignores oncePer)`,
          fix: `rename it without the prefix, e.g. glidepath-${name.slice(3)}`,
        })),
    );
    if (subject.engine === 'rollouts') tally.checkEach(ref, 'generation-guard', () => guardProblems(loaded));
    tally.checkEach(ref, 'time-bucket', () => timeBucketProblems(loaded, subject.engine, context));
    tally.checkEach(ref, 'nil-safe', () => nilSafetyProblems(loaded, subject.engine));
    tally.checkEach(ref, 'template-json', () => templateProblems(loaded, subject.engine));
    tally.checkEach(ref, 'references', () => referenceProblems(loaded));
    tally.checkEach(ref, 'webhook-post-json', () => webhookProblems(loaded));
  }
  return tally.report();
}

function notificationSubject(object: RenderedObject, context: VerifyContext): Subject | undefined {
  const { manifest } = object;
  if (manifest.kind !== 'ConfigMap' || !isRecord(manifest.data)) return undefined;
  const name = manifest.metadata?.name;
  const engine: Engine | undefined = name === ROLLOUTS_NOTIFICATION_CONFIGMAP ? 'rollouts' : name === ARGOCD_NOTIFICATIONS_CONFIGMAP ? 'argocd' : undefined;
  if (!engine) return undefined;
  const all = Object.fromEntries(Object.entries(manifest.data).map(([key, value]) => [key, String(value)]));
  // A team's own keys (extraData) are checked by verify/extra-data.ts, with the rules that fit them.
  return { engine, ref: objectRef(manifest), object, data: splitOwnedData(all, context.config[engine].extraData).glidepath };
}

function conditions(loaded: LoadedConfig) {
  return [...loaded.triggers].flatMap(([trigger, list]) => list.map((condition) => ({ trigger, condition, at: `trigger.${trigger}[${condition.index}]` })));
}

// ---------------------------------------------------------------- rule A: the generation guard

/** The operands of the top-level `and` chain. */
function conjuncts(expr: Expr): Expr[] {
  return expr.kind === 'binary' && expr.operator === 'and' ? [...conjuncts(expr.left), ...conjuncts(expr.right)] : [expr];
}

function guardProblems(loaded: LoadedConfig): Problem[] {
  return conditions(loaded).flatMap(({ condition, at }) => {
    const guarded = conjuncts(condition.when).some((part) => [GUARD, GUARD_SWAPPED].includes(printExpr(part)));
    return guarded
      ? []
      : [{
          message: `${at}.when ${JSON.stringify(condition.whenText)} lacks the generation guard (rule A: without it the engine sends facts with the new release-id and the old pod hash)`,
          fix: `require ${GUARD} (and-ed with the rest of the condition)`,
        }];
  });
}

// ---------------------------------------------------------------- rule C: time buckets

function mentionsTime(expr: Expr): boolean {
  return someNode(expr, (node) => node.kind === 'ident' && node.name === 'time');
}

function someNode(expr: Expr, test: (node: Expr) => boolean): boolean {
  if (test(expr)) return true;
  switch (expr.kind) {
    case 'array': return expr.items.some((item) => someNode(item, test));
    case 'member': return someNode(expr.object, test);
    case 'index': return someNode(expr.object, test) || someNode(expr.index, test);
    case 'call': return someNode(expr.callee, test) || expr.args.some((arg) => someNode(arg, test));
    case 'binary': return someNode(expr.left, test) || someNode(expr.right, test);
    case 'not': return someNode(expr.operand, test);
    default: return false;
  }
}

/** Divisions of a time value that no `int()` truncates: each is a float that changes every second. */
export function untruncatedTimeDivisions(expr: Expr, insideInt = false): Expr[] {
  const here = expr.kind === 'binary' && expr.operator === '/' && mentionsTime(expr) && !insideInt ? [expr] : [];
  const isInt = expr.kind === 'call' && expr.callee.kind === 'ident' && expr.callee.name === 'int';
  const children = childrenOf(expr);
  // `int(a / b)` truncates the division directly inside it, not a division nested deeper in another call.
  const nextInsideInt = (child: Expr) => (isInt && child.kind === 'binary' && child.operator === '/') || (insideInt && expr.kind === 'binary' && expr.operator !== '/');
  return [...here, ...children.flatMap((child) => untruncatedTimeDivisions(child, nextInsideInt(child)))];
}

function timeBucketProblems(loaded: LoadedConfig, engine: Engine, context: VerifyContext): Problem[] {
  const resync = engine === 'rollouts' ? context.config.rollouts.resyncSeconds : ARGOCD_RESYNC_SECONDS;
  const steady = engine === 'rollouts' ? ODD_ROLLOUTS[2]!.object : ODD_APPLICATIONS[2]!.object;
  const problems: Problem[] = [];
  for (const { condition, at } of conditions(loaded)) {
    for (const [field, expr, text] of [['when', condition.when, condition.whenText], ['oncePer', condition.oncePer, condition.oncePerText]] as const) {
      if (!expr || !mentionsTime(expr)) continue;
      for (const division of untruncatedTimeDivisions(expr)) {
        problems.push({
          message: `${at}.${field}: ${printExpr(division)} is a float in expr-lang, so string() of it changes every second and the trigger fires on every evaluation`,
          fix: 'truncate the bucket: string(int(time.Now().Unix() / N))',
        });
      }
      const valueAt = (seconds: number) => evaluateText(expr, variables(engine, steady, EPOCH + seconds * 1000));
      const perSecond = new Set(Array.from({ length: 10 }, (_, s) => valueAt(s)));
      if (perSecond.size > 2) {
        problems.push({ message: `${at}.${field} ${JSON.stringify(text)} takes ${perSecond.size} values in 10 seconds: it is not a time bucket`, fix: 'use string(int(time.Now().Unix() / N)) with N below the resync period' });
      } else if (field === 'oncePer') {
        // A resync that comes a second early must still land in a new bucket: the bucket is shorter than it.
        const starts = [0, 1, 299, 599, 899];
        if (starts.some((start) => valueAt(start) === valueAt(start + resync - 1))) {
          problems.push({
            message: `${at}.oncePer ${JSON.stringify(text)}: two resyncs about ${resync} s apart can share a bucket, so a lost fact waits a whole extra resync`,
            fix: `make the bucket shorter than the resync period (${resync} s)`,
          });
        }
      }
    }
  }
  return problems;
}

function evaluateText(expr: Expr, env: GoMap): string {
  try {
    return formatGoValue(evaluate(expr, env));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

// ---------------------------------------------------------------- missing objects and template JSON

const MODES: Readonly<Record<Engine, EngineMode>> = { rollouts: ROLLOUTS_MODE, argocd: ARGOCD_MODE };

function variables(engine: Engine, object: Record<string, unknown>, now: number, context: Readonly<Record<string, string>> = {}): GoMap {
  return MODES[engine].variables(fromJson(object) as GoMap, new Date(now), context);
}

function oddObjects(engine: Engine) {
  return engine === 'rollouts' ? ODD_ROLLOUTS : ODD_APPLICATIONS;
}

/** Objects every Rollout / Application has; any other field may be missing and needs `?.` or a `!= nil` guard. */
const ALWAYS_PRESENT: Readonly<Record<Engine, ReadonlySet<string>>> = {
  rollouts: new Set(['rollout', 'rollout.metadata', 'rollout.spec']),
  argocd: new Set(['app', 'app.metadata', 'app.spec', 'app.status']),
};
const ROOTS: Readonly<Record<Engine, string>> = { rollouts: 'rollout', argocd: 'app' };

/** `rollout.status.phase` for a chain of plain members and string indexes, else undefined. */
function chainPath(expr: Expr): string | undefined {
  if (expr.kind === 'ident') return expr.name;
  if (expr.kind === 'member') {
    const base = chainPath(expr.object);
    return base === undefined ? undefined : `${base}.${expr.property}`;
  }
  if (expr.kind === 'index' && expr.index.kind === 'literal' && typeof expr.index.value === 'string') {
    const base = chainPath(expr.object);
    return base === undefined ? undefined : `${base}.${expr.index.value}`;
  }
  return undefined;
}

/**
 * Statically: every non-optional `.field` read on an object that may be missing, unless an earlier conjunct of the
 * same `and` chain checked that object `!= nil`. (Evaluation alone misses reads that `and` short-circuits today.)
 */
export function unguardedReads(expr: Expr, engine: Engine, guarded: ReadonlySet<string> = new Set()): string[] {
  if (expr.kind === 'binary' && expr.operator === 'and') {
    const found = unguardedReads(expr.left, engine, guarded);
    const more = new Set(guarded);
    for (const part of conjuncts(expr.left)) {
      if (part.kind === 'binary' && part.operator === '!=' && part.right.kind === 'literal' && part.right.value === null) {
        const checked = chainPath(part.left);
        if (checked !== undefined) more.add(checked);
      }
    }
    return [...found, ...unguardedReads(expr.right, engine, more)];
  }
  const found: string[] = [];
  if ((expr.kind === 'member' || expr.kind === 'index') && !expr.optional) {
    const object = chainPath(expr.object);
    const root = object?.split('.')[0];
    if (object !== undefined && root === ROOTS[engine] && !ALWAYS_PRESENT[engine].has(object) && !guarded.has(object)) {
      found.push(`${printExpr(expr)} (${object} may be missing)`);
    }
  }
  const children = childrenOf(expr);
  return [...found, ...children.flatMap((child) => unguardedReads(child, engine, guarded))];
}

/**
 * Objects a true `when` proves present: `P != nil`, and the object of a chain compared with `==` to a value that is
 * never nil (`rollout.status?.observedGeneration == string(...)` is false when status is missing).
 */
export function provenByWhen(when: Expr): Set<string> {
  const proven = new Set<string>();
  for (const part of conjuncts(when)) {
    if (part.kind !== 'binary') continue;
    const sides = [[part.left, part.right], [part.right, part.left]] as const;
    for (const [chain, other] of sides) {
      const path = chainPath(chain);
      if (path === undefined) continue;
      if (part.operator === '!=' && other.kind === 'literal' && other.value === null) proven.add(path);
      const neverNil = other.kind === 'call' || (other.kind === 'literal' && other.value !== null);
      if (part.operator === '==' && neverNil) {
        const steps = path.split('.');
        for (let i = 1; i < steps.length; i++) proven.add(steps.slice(0, i).join('.'));
      }
    }
  }
  return proven;
}

function nilSafetyProblems(loaded: LoadedConfig, engine: Engine): Problem[] {
  const problems: Problem[] = [];
  for (const { condition, at } of conditions(loaded)) {
    // The engine evaluates oncePer only when `when` is true (notifications-engine pkg/triggers/service.go).
    const whenProves = provenByWhen(condition.when);
    for (const [field, expr] of [['when', condition.when], ['oncePer', condition.oncePer]] as const) {
      if (!expr) continue;
      for (const read of new Set(unguardedReads(expr, engine, field === 'oncePer' ? whenProves : new Set()))) {
        problems.push({
          message: `${at}.${field} reads ${read} without ?. or a != nil guard (reading a field of nil is an error the engine treats as false)`,
          fix: 'use ?. for every step that may be missing, and ?? for a default',
        });
      }
      for (const odd of oddObjects(engine)) {
        const env = variables(engine, odd.object, EPOCH, loaded.context);
        try {
          if (field === 'oncePer' && evaluateText(condition.when, env) !== 'true') continue;
          evaluate(expr, env);
        } catch (error) {
          problems.push({
            message: `${at}.${field} fails for a ${engine === 'rollouts' ? 'Rollout' : 'Application'} with ${odd.name}: ${(error as Error).message} (the engine logs it and treats the trigger as false: a silent non-fact)`,
            fix: 'guard fields of objects that may be missing with ?. and ?? (e.g. rollout.status?.phase ?? "")',
          });
        }
      }
    }
  }
  return problems;
}

function templateProblems(loaded: LoadedConfig, engine: Engine): Problem[] {
  const problems: Problem[] = [];
  for (const [name, template] of loaded.templates) {
    const parts = [
      ...(template.message ? [{ at: `template.${name}.message`, template: template.message, json: false }] : []),
      ...Object.entries(template.webhook).flatMap(([service, request]) => (request.body ? [{ at: `template.${name}.webhook.${service}.body`, template: request.body, json: true }] : [])),
    ];
    for (const part of parts) {
      for (const odd of oddObjects(engine)) {
        let text: string;
        try {
          text = part.template.execute({ ...variables(engine, odd.object, EPOCH, loaded.context), serviceType: 'webhook', recipient: 'glidepath' });
        } catch (error) {
          problems.push({
            message: `${part.at} fails for ${odd.name}: ${(error as Error).message} (a nil map in a template chain is an error; nothing is sent)`,
            fix: 'read possibly missing fields through the body builder (field(...) with a fallback), never by a bare chain',
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
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function excerpt(text: string): string {
  const flat = JSON.stringify(text);
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}

// ---------------------------------------------------------------- references and webhooks

function referenceProblems(loaded: LoadedConfig): Problem[] {
  const problems: Problem[] = [];
  loaded.subscriptions.forEach((subscription, i) => {
    for (const trigger of subscription.triggers) {
      if (!loaded.triggers.has(trigger)) problems.push({ message: `subscriptions[${i}] subscribes to trigger ${JSON.stringify(trigger)}, which is not defined`, fix: `define trigger.${trigger} or fix the name` });
    }
    for (const recipient of subscription.recipients) {
      const service = recipient.split(':')[0]!;
      if (!loaded.services.has(service)) problems.push({ message: `subscriptions[${i}] sends to service ${JSON.stringify(service)}, which is not defined`, fix: `define service.webhook.${service} or fix the name` });
    }
  });
  for (const trigger of loaded.defaultTriggers) {
    if (!loaded.triggers.has(trigger)) problems.push({ message: `defaultTriggers names ${JSON.stringify(trigger)}, which is not defined`, fix: `define trigger.${trigger}` });
  }
  for (const { condition, at } of conditions(loaded)) {
    for (const template of condition.send) {
      if (!loaded.templates.has(template)) problems.push({ message: `${at}.send names template ${JSON.stringify(template)}, which is not defined`, fix: `define template.${template} or fix the name` });
    }
  }
  for (const [name, template] of loaded.templates) {
    for (const service of Object.keys(template.webhook)) {
      if (!loaded.services.has(service)) problems.push({ message: `template.${name}.webhook.${service}: no service.webhook.${service}`, fix: 'use the name of a defined webhook service' });
    }
  }
  return problems;
}

function webhookProblems(loaded: LoadedConfig): Problem[] {
  const problems: Problem[] = [];
  for (const [name, template] of loaded.templates) {
    for (const [service, request] of Object.entries(template.webhook)) {
      if (request.method !== 'POST') {
        problems.push({ message: `template.${name}.webhook.${service}.method is ${JSON.stringify(request.method) ?? 'not set (the engine defaults to GET)'}`, fix: 'set method: POST' });
      }
    }
  }
  for (const [name, service] of loaded.services) {
    const contentType = service.headers.find((header) => header.name.toLowerCase() === 'content-type');
    if (!contentType?.value.startsWith('application/json')) {
      problems.push({
        message: `service.webhook.${name} has ${contentType ? `Content-Type ${JSON.stringify(contentType.value)}` : 'no Content-Type header (the engine adds none)'}`,
        fix: 'add the header Content-Type: application/json',
      });
    }
  }
  return problems;
}

// ---------------------------------------------------------------- verbatim

/**
 * Expressions must reach the YAML as the builder wrote them: multi-line values as block scalars, no `\u0027`-style
 * escapes, each `when`/`oncePer` in the printer's canonical form, and (for the Rollouts ConfigMap) every key
 * byte-identical to what the builder produced for this cluster.
 */
function verbatimProblems(subject: Subject, context: VerifyContext): Problem[] {
  const problems: Problem[] = [];
  if (subject.object.source !== undefined) {
    const document = parseDocument(subject.object.source);
    for (const key of Object.keys(subject.data)) {
      const node = document.getIn(['data', key], true);
      if (isScalar(node) && String(node.value).includes('\n') && node.type !== 'BLOCK_LITERAL') {
        problems.push({ message: `data[${JSON.stringify(key)}] is written as a ${String(node.type)} scalar, not a block scalar`, fix: 'render multi-line values as literal block scalars (|) so that nothing is escaped' });
      }
    }
  }
  for (const [key, text] of Object.entries(subject.data)) {
    if (!key.startsWith('trigger.')) continue;
    let conditions: unknown;
    try {
      conditions = parseDocument(text).toJS();
    } catch {
      continue; // engine-accepts reports it
    }
    const inner = parseDocument(text);
    (Array.isArray(conditions) ? conditions : []).forEach((condition, i) => {
      for (const field of ['when', 'oncePer'] as const) {
        const node = inner.getIn([i, field], true) as Scalar | undefined;
        const value = isRecord(condition) ? condition[field] : undefined;
        if (typeof value !== 'string') continue;
        const at = `data["${key}"][${i}].${field}`;
        if (/\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}/.test(value) || (node?.source ?? '').includes('\\u')) {
          problems.push({ message: `${at} holds an escape sequence (${excerpt(value)}); the engine would read it literally or lose the quote`, fix: 'write the quotes as they are; never pass expressions through JSON escaping' });
        }
        try {
          const canonical = printExpr(parseExpr(value));
          if (canonical !== value) problems.push({ message: `${at} ${excerpt(value)} is not what the expression printer writes (${excerpt(canonical)})`, fix: 'build the expression with the typed AST and printExpr' });
        } catch (error) {
          problems.push({ message: `${at} does not parse: ${(error as Error).message}`, fix: 'build the expression with the typed AST and printExpr' });
        }
      }
    });
  }
  if (subject.engine === 'rollouts') {
    const built = rolloutNotifications(context.config).data;
    for (const key of new Set([...Object.keys(built), ...Object.keys(subject.data)])) {
      // A helm chart writes the subscriptions list again with toYaml: equal as YAML is what the engine reads.
      const sameList = key === 'subscriptions' && built[key] !== undefined && subject.data[key] !== undefined && isDeepStrictEqual(parse(built[key]), parse(subject.data[key]));
      if (built[key] !== subject.data[key] && !sameList) {
        problems.push({
          message: `data[${JSON.stringify(key)}] differs from what the builder produced for this cluster (${built[key] === undefined ? 'not built' : subject.data[key] === undefined ? 'missing' : 'changed on the way to the YAML'})`,
          fix: 'render the ConfigMap from rolloutNotifications(config) without editing its data',
        });
      }
    }
  }
  return problems;
}
