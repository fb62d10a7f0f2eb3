/**
 * Reads a team's own ConfigMap keys (`extraData`) the way the engine of one release reads them at config load
 * (notifications-engine pkg/api: `ParseConfig`, the controller's `InitGetVars`, then `NewAPI`): each value
 * unmarshalled into the engine's own Go types (go-unmarshal.ts), every service built, every trigger's
 * `when` and `oncePer` compiled, every templated field parsed, every selector parsed by `labels.Parse`. One failing
 * key makes the engine refuse the whole ConfigMap, glidepath's keys with it: those are errors. What the engine
 * accepts but is likely a mistake (a key it reads nothing from, a duplicate key) is a warning.
 */
import { engineSchema, knownEngineVersions, unmarshalProblem, type EngineSchema, type GoType } from './go-unmarshal';
import type { EngineKey, NotificationsEngine } from './engine-keys';
import { conditionProblems, selectorProblems } from './conditions-and-selectors';
import { readKeys, type KeyRead } from './read-key';
import type { Parsed, ValueProblem } from './read-value';
import { parseTemplate, TemplateParseError } from '../model/go-template-parse';
import { githubServiceProblem } from './github-service';

export interface ExtraDataProblem extends ValueProblem {
  readonly key: string;
}

type Problem = ValueProblem;

const STRING_LIST: GoType = { kind: 'list', elem: { kind: 'string', go: 'string' }, go: '[]string' };
const STRING_MAP: GoType = { kind: 'map', elem: { kind: 'string', go: 'string' }, go: 'map[string]string' };
/**
 * subscriptions.DefaultSubscription unmarshals itself through rawSubscription: sigs.k8s.io/yaml converts nothing below
 * it.
 */
const RAW_SUBSCRIPTION: GoType = {
  kind: 'struct',
  go: 'subscriptions.rawSubscription',
  fields: { recipients: STRING_LIST, triggers: STRING_LIST, selector: { kind: 'string', go: 'string' } },
};

/**
 * The problems of a team's keys on the notifications-engine versions `notificationsEngines`. `any`: a key fails
 * when one of them refuses it (verify, on the versions of the declared release); `all`: only when every one of
 * them does (the loader, which does not know the release yet: it refuses nothing that some engine accepts).
 */
export function extraDataProblems(
  engine: NotificationsEngine,
  data: Readonly<Record<string, string>>,
  notificationsEngines: readonly string[] = knownEngineVersions(),
  refusedBy: 'any' | 'all' = 'any',
): ExtraDataProblem[] {
  return configMapProblems(engine, data, notificationsEngines, refusedBy, 'team');
}

/**
 * Keys whose Go type is the same in every engine version (a string map, a string list, the raw subscriptions): checked
 * once, not once per schema (a `context` of 60,000 keys was read 15 times).
 */
const SCHEMA_FREE_KINDS: ReadonlySet<EngineKey['kind']> = new Set([
  'context',
  'defaultTriggers',
  'serviceDefaultTriggers',
  'subscriptions',
]);
const ANY_SCHEMA = Symbol('any schema');

/**
 * As `extraDataProblems`, for any keys of a notifications ConfigMap. `team`: glidepath's own rules for a team's keys
 * too (its names and its services are not for them).
 */
export function configMapProblems(
  engine: NotificationsEngine,
  data: Readonly<Record<string, string>>,
  notificationsEngines: readonly string[],
  refusedBy: 'any' | 'all',
  rules: 'engine' | 'team',
  reads: ReadonlyMap<string, KeyRead> = readKeys(engine, data, rules),
): ExtraDataProblem[] {
  return Object.keys(data).flatMap((key) => {
    // The key's kind and its YAML do not depend on the version: read once, then checked against each schema
    // (once per schema: versions share them).
    const read = reads.get(key)!;
    const bySchema = new Map<EngineSchema | typeof ANY_SCHEMA, Problem[]>();
    const shared = schemaFreeChecks();
    const perVersion = notificationsEngines.map((version): readonly Problem[] => {
      const schema = engineSchema(version);
      if (schema === undefined)
        return [
          {
            message:
              `notifications-engine ${version} has no schema in ` +
              'src/notifications/configmap/engine-schemas.json; run npm run judge:engine -- --write-schemas',
          },
        ];
      if ('problems' in read) return read.problems;
      const slot = SCHEMA_FREE_KINDS.has(read.key.kind) ? ANY_SCHEMA : schema;
      let problems = bySchema.get(slot);
      if (problems === undefined)
        bySchema.set(
          slot,
          (problems = [...read.warnings, ...valueProblems(read.key, read.parsed, schema, rules, shared)]),
        );
      return problems;
    });
    const isError = (problem: Problem) => problem.severity !== 'warning';
    const accepted = perVersion.filter((problems) => !problems.some(isError));
    // `all` with no version accepting: the newest one's reasons (each version words its list of types itself).
    const chosen = refusedBy === 'any' ? perVersion : accepted.length > 0 ? accepted : perVersion.slice(-1);
    const seen = new Set<string>();
    return chosen
      .flat()
      .filter((problem) => refusedBy === 'any' || accepted.length === 0 || !isError(problem))
      .filter((problem) => !seen.has(problem.message) && seen.add(problem.message) !== undefined)
      .map((problem) => ({ key, ...problem }));
  });
}

/**
 * What the cluster file's schema refuses (src/clusters.ts): the problems every engine version has, for the loader
 * does not know the release yet; verify prints the warnings.
 */
export function extraDataRefusals(
  engine: NotificationsEngine,
  data: Readonly<Record<string, string>>,
): ExtraDataProblem[] {
  return extraDataProblems(engine, data, knownEngineVersions(), 'all').filter(
    (problem) => problem.severity !== 'warning',
  );
}

function valueProblems(
  key: EngineKey,
  parsed: Parsed,
  schema: EngineSchema,
  rules: 'engine' | 'team',
  shared: SchemaFreeChecks,
): Problem[] {
  const typed = (type: GoType, converted = true): Problem[] => {
    const problem = unmarshalProblem(parsed.value, type, '', converted);
    return problem === undefined
      ? []
      : [{ message: `the engine cannot read it: ${problem}`, ...lineOfField(parsed, problem) }];
  };
  switch (key.kind) {
    case 'service': {
      const options = schema.services[key.type];
      if (options === undefined)
        return [
          {
            message:
              `service type '${key.type}' is not supported by this engine (it knows ` +
              `${Object.keys(schema.services).sort().join(', ')})`,
          },
        ];
      const problems = typed(options);
      if (problems.length === 0 && key.type === 'github') {
        const github = githubServiceProblem(parsed.value, options);
        if (github !== undefined) return [{ message: github }];
      }
      return problems;
    }
    case 'template':
      return [...typed(schema.notification), ...templatedProblems(parsed, schema, shared)].slice(0, 1);
    case 'trigger': {
      const problems = typed({ kind: 'list', elem: schema.condition, go: '[]triggers.Condition' });
      return problems.length > 0 ? problems : (shared.conditions ??= conditionProblems(parsed));
    }
    case 'subscriptions': {
      const problems = typed({ kind: 'list', elem: RAW_SUBSCRIPTION, go: 'subscriptions.DefaultSubscriptions' }, false);
      return problems.length > 0 ? problems : selectorProblems(parsed, rules);
    }
    case 'defaultTriggers':
    case 'serviceDefaultTriggers':
      return typed(STRING_LIST);
    case 'context':
      return typed(STRING_MAP);
  }
}

/**
 * What one key's checks find the same whatever the schema, worked out once for the key: it is checked against the
 * schema of each engine version. Templates parse alike but for two sets of lacking functions.
 */
interface SchemaFreeChecks {
  /** By the lacking functions (joined), then by template text. */
  readonly templates: Map<string, Map<string, TemplateParseError | undefined>>;
  /** The fields of the value a templated-field pattern names, by pattern. */
  readonly fields: Map<string, { path: (string | number)[]; value: unknown }[]>;
  /** The problems of a trigger's conditions. */
  conditions?: Problem[];
}

function schemaFreeChecks(): SchemaFreeChecks {
  return { templates: new Map(), fields: new Map() };
}

/** Every templated field present must parse as a Go template (a number or a boolean there is its text). */
function templatedProblems(parsed: Parsed, schema: EngineSchema, shared: SchemaFreeChecks): Problem[] {
  const problems: Problem[] = [];
  const lackingKey = schema.lackingFunctions.join(' ');
  let parses = shared.templates.get(lackingKey);
  if (parses === undefined) shared.templates.set(lackingKey, (parses = new Map()));
  for (const pattern of schema.templated) {
    let fields = shared.fields.get(pattern);
    if (fields === undefined) shared.fields.set(pattern, (fields = matching(parsed.value, pattern.split('.'), [])));
    for (const { path, value } of fields) {
      if (value === null || value === undefined || typeof value === 'object') continue;
      const text = String(value);
      if (!parses.has(text)) parses.set(text, templateProblem(text, new Set(schema.lackingFunctions)));
      const problem = parses.get(text);
      if (problem === undefined) continue;
      const start = parsed.lineOf(path);
      problems.push({
        ...(start === undefined ? {} : { line: start + problem.line - 1 }),
        message: `${path.join('.')} does not parse as a Go template: ${problem.problem}`,
      });
    }
  }
  return problems;
}

function templateProblem(text: string, lacking: ReadonlySet<string>): TemplateParseError | undefined {
  try {
    parseTemplate('t', text, lacking);
    return undefined;
  } catch (error) {
    if (error instanceof TemplateParseError) return error;
    throw error;
  }
}

function matching(
  value: unknown,
  pattern: readonly string[],
  path: (string | number)[],
): { path: (string | number)[]; value: unknown }[] {
  if (pattern.length === 0) return [{ path, value }];
  const [step, ...rest] = pattern as [string, ...string[]];
  if (Array.isArray(value)) return step === '*' ? value.flatMap((item, i) => matching(item, rest, [...path, i])) : [];
  if (value === null || typeof value !== 'object') return [];
  const entries = Object.entries(value as Record<string, unknown>);
  return entries
    .filter(([key]) => step === '*' || key.toLowerCase() === step.toLowerCase())
    .flatMap(([key, item]) => matching(item, rest, [...path, key]));
}

/** The line of the field a Go unmarshal error names (`EmailOptions.port`), when it is at the top of the value. */
function lineOfField(parsed: Parsed, problem: string): { line?: number } {
  const field = /Go struct field \w+\.(\w+)/.exec(problem)?.[1];
  const line = field === undefined ? undefined : parsed.lineOf([field]);
  return line === undefined ? {} : { line };
}
