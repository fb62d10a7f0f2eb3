/** One judge binary per distinct expr module, expr version and sprig version of the engine release table. */
import type { EngineRelease, ExprModule } from '../../src/notifications/engine-releases';

export interface JudgeBuild {
  /** e.g. `antonmedv-expr-v1.15.5_sprig-v3.2.3`: the modfile's name and the report's. */
  readonly name: string;
  readonly module: ExprModule;
  readonly version: string;
  readonly sprig: string;
  /** Relative to tools/exprjudge. */
  readonly modfile: string;
  readonly tags: readonly string[];
  readonly rows: readonly EngineRelease[];
}

const SHORT_NAMES: Readonly<Record<ExprModule, string>> = {
  'github.com/antonmedv/expr': 'antonmedv-expr',
  'github.com/expr-lang/expr': 'expr-lang-expr',
};

export function buildsOf(rows: readonly EngineRelease[]): JudgeBuild[] {
  const builds = new Map<string, JudgeBuild>();
  for (const row of rows) {
    const name = `${SHORT_NAMES[row.expr.module]}-v${row.expr.version}_sprig-v${row.sprig}`;
    const known = builds.get(name);
    builds.set(name, {
      name,
      module: row.expr.module,
      version: row.expr.version,
      sprig: row.sprig,
      modfile: `modfiles/${name}.mod`,
      // expr_antonmedv.go imports the old module path; expr_exprlang.go the new one.
      tags: row.expr.module === 'github.com/antonmedv/expr' ? ['antonmedv'] : [],
      rows: [...(known?.rows ?? []), row],
    });
  }
  return [...builds.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}
