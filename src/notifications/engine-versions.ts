/**
 * What the engine release table (engine-releases.ts) says about a cluster's release: its row, the rows after it,
 * and whether its expr has the features glidepath's expressions need.
 */
import { CONVERSION_FEATURES, EXPR_FEATURE_SYNTAX, type ExprFeature } from './expr/features';
import { EVERY_CHECKER, type CheckerRules } from './expr/literal-types';
import type { ExprSemantics } from './model/expr-eval';
import { ENGINE_NAMES, ENGINE_RELEASES, type Engine, type EngineRelease } from './engine-releases';

/**
 * The first expr version in the table that has each feature; every earlier one lacks it (`?.` is in all of
 * them). Without a builtin, expr compiles `string(x)` as a call of the unset variable `string`, which fails on every
 * run. `int()` and `float()` came before `string()` (run on v1.9.0, v1.10.0, v1.12.5, v1.13.0 and v1.15.1).
 */
export const EXPR_FEATURE_SINCE: Readonly<Record<ExprFeature, string>> = {
  'optional-member': '1.9.0',
  'nil-coalescing': '1.12.5',
  'number-conversions': '1.12.5',
  'string-conversion': '1.15.1',
  'optional-index': '1.16.9',
  let: '1.15.1',
  sequence: '1.17.5',
  'bare-predicate': '1.12.5',
  'raw-string': '1.16.9',
};

/**
 * antonmedv/expr before this version divides two integers as Go does (`7 / 2` is 3, `x / 0` an error); from it on,
 * `/` always returns a float. Run on v1.9.0, v1.10.0, v1.11.0, v1.12.0 and v1.12.5; `npm run judge:expr` compares
 * the model's values with each release's.
 */
const FLOAT_DIVISION_SINCE = '1.10.0';

/** How the expr of this row evaluates what differs between the releases of the table. */
export function exprSemantics(row: EngineRelease): ExprSemantics {
  return { integerDivision: compareReleases(row.expr.version, FLOAT_DIVISION_SINCE) < 0 };
}

/**
 * From this version on, the checker takes every `/` for a float64 (`x / 60 % 24` does not compile); from v1.10.0 to
 * v1.14.0 it compiles and fails on every run. Run on v1.9.0, v1.12.5, v1.13.0, v1.14.0, v1.14.1, v1.14.3, v1.15.0.
 */
const FLOAT_DIVISION_CHECKED_SINCE = '1.14.1';
/** From this version on, `%` of an unknown and an integer is an integer (`x % 2 == "a"` does not compile). */
const INT_REMAINDER_CHECKED_SINCE = '1.17.5';

/** What the checker of this row's expr refuses at compile time (`npm run judge:engine` holds the cases). */
export function checkerRules(row: EngineRelease): CheckerRules {
  const since = (version: string) => compareReleases(row.expr.version, version) >= 0;
  return {
    ...EVERY_CHECKER,
    divisionIsFloat: since(FLOAT_DIVISION_CHECKED_SINCE),
    unknownTakesNumberType: !since(FLOAT_DIVISION_SINCE),
    remainderIsInt: since(INT_REMAINDER_CHECKED_SINCE),
    constantIntegerDivision: exprSemantics(row).integerDivision,
    conversions: new Set(
      Object.entries(CONVERSION_FEATURES)
        .filter(([, feature]) => since(EXPR_FEATURE_SINCE[feature]))
        .map(([builtin]) => builtin),
    ),
  };
}

export function compareReleases(a: string, b: string): number {
  const [pa, pb] = [a, b].map((text) => text.split('.').map(Number));
  for (let i = 0; i < 3; i += 1) {
    const diff = (pa![i] ?? 0) - (pb![i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

const minor = (release: string) => release.split('.').slice(0, 2).join('.');

export function releasesOf(engine: Engine): EngineRelease[] {
  return ENGINE_RELEASES.filter((row) => row.engine === engine);
}

/** The row that covers `release`, or undefined when the table has none (older or newer than every row). */
export function engineRelease(engine: Engine, release: string): EngineRelease | undefined {
  const rows = releasesOf(engine);
  const newest = rows.at(-1)!;
  if (compareReleases(minor(release) + '.0', minor(newest.read.at(-1)!) + '.0') > 0) return undefined;
  return rows.filter((row) => compareReleases(row.from, release) <= 0).at(-1);
}

/** The rows a cluster on `release` runs now or after an upgrade: the one covering it and every later one. */
export function rowsFrom(engine: Engine, release: string): EngineRelease[] {
  const rows = releasesOf(engine);
  const current = engineRelease(engine, release);
  return current ? rows.slice(rows.indexOf(current)) : rows.filter((row) => compareReleases(row.from, release) > 0);
}

/** The features of `needs` that this row's expr lacks. */
export function missingFeatures(row: EngineRelease, needs: readonly ExprFeature[]): ExprFeature[] {
  return needs.filter((feature) => compareReleases(row.expr.version, EXPR_FEATURE_SINCE[feature]) < 0);
}

/** The first release whose row, and every later one, has all of `needs`. */
export function lowestSupported(engine: Engine, needs: readonly ExprFeature[]): string {
  const rows = releasesOf(engine);
  const firstBad = rows.map((row) => missingFeatures(row, needs).length > 0).lastIndexOf(true);
  const first = rows[firstBad + 1];
  if (!first) throw new Error(`no ${ENGINE_NAMES[engine]} release in the table has ${needs.join(', ')}`);
  return first.from;
}

const problems = new Map<string, string | undefined>();

/** Why `release` cannot run expressions that need `needs`, with the fix; undefined when it can. */
export function releaseProblem(
  engine: Engine,
  release: string,
  needs: readonly ExprFeature[],
  purpose: string,
): string | undefined {
  // Every cluster file load asks this; the answer only depends on the arguments.
  const key = [engine, release, purpose, ...needs].join('\0');
  if (!problems.has(key)) problems.set(key, findReleaseProblem(engine, release, needs, purpose));
  return problems.get(key);
}

function findReleaseProblem(
  engine: Engine,
  release: string,
  needs: readonly ExprFeature[],
  purpose: string,
): string | undefined {
  const row = engineRelease(engine, release);
  if (row && missingFeatures(row, needs).length === 0) return undefined;
  const name = ENGINE_NAMES[engine];
  const lowest = lowestSupported(engine, needs);
  if (!row) {
    const rows = releasesOf(engine);
    if (compareReleases(release, rows[0]!.from) < 0)
      return (
        `${name} ${release} is older than every release in the table; the lowest supported is ${lowest}: ` +
        `upgrade, then set this field to the running release`
      );
    const newest = rows.at(-1)!.read.at(-1)!;
    return (
      `${name} ${release} is newer than the table (newest: ${minor(newest)}.x); set this field to ${newest}, the ` +
      'newest listed release, or use a glidepath-gitops release that lists it (in its repository: add the ' +
      "release's go.mod pins to src/notifications/engine-releases.ts, then npm run judge:expr)"
    );
  }
  const missing = missingFeatures(row, needs);
  const lacks = missing.map((feature) => EXPR_FEATURE_SYNTAX[feature]).join(' and ');
  return (
    `${name} ${release} builds its notifications with ${row.expr.module} v${row.expr.version}, which lacks ` +
    `${lacks}, used by ${purpose}; the lowest supported release is ${lowest}: upgrade, then set this field to ` +
    `the running release`
  );
}
