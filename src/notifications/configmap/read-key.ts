/**
 * Each key of a notifications ConfigMap read the way the engine starts: its kind from its name, its value as YAML.
 * What configMapProblems checks against each engine version's schema, and what loadConfigData loads from.
 */
import { classifyKey, GLIDEPATH_NAME_PREFIX, type EngineKey, type NotificationsEngine } from './engine-keys';
import { parseValue, type Parsed, type ValueProblem } from './read-value';

/** A key's kind and its value read as YAML, or the problems that stop every engine version before its schema. */
export type KeyRead = { key: EngineKey; parsed: Parsed; warnings: ValueProblem[] } | { problems: ValueProblem[] };

/** Each key of `data` read (readKey): what configMapProblems checks, and what the caller may load from. */
export function readKeys(
  engine: NotificationsEngine,
  data: Readonly<Record<string, string>>,
  rules: 'engine' | 'team',
): Map<string, KeyRead> {
  return new Map(Object.entries(data).map(([key, text]) => [key, readKey(engine, key, text, rules)]));
}

function readKey(engine: NotificationsEngine, key: string, text: string, rules: 'engine' | 'team'): KeyRead {
  const classified = classifyKey(engine, key);
  if ('problem' in classified)
    return {
      problems: [{ message: classified.problem, ...(classified.warning ? { severity: 'warning' as const } : {}) }],
    };
  if (rules === 'team' && 'name' in classified && classified.name.startsWith(GLIDEPATH_NAME_PREFIX)) {
    return {
      problems: [{ message: `names starting "${GLIDEPATH_NAME_PREFIX}" are glidepath's own; choose another name` }],
    };
  }
  const parsed = parseValue(text);
  if ('message' in parsed) return { problems: [parsed] };
  return { key: classified, parsed: parsed.parsed, warnings: parsed.warnings };
}
