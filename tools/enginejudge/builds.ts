/**
 * One engine judge binary per notifications-engine version of the engine release table, built with the expr and
 * sprig versions that row's releases pin (their go.mod wins over the engine's own by minimal version selection).
 */
import { ENGINE_RELEASES, type EngineRelease } from '../../src/notifications/engine-releases';

export interface EngineBuild {
  /** e.g. `ne-v0.5.0_expr-lang-v1.16.9_sprig-v3.3.0`: the modfile's name and the report's. */
  readonly name: string;
  readonly notificationsEngine: string;
  readonly expr: EngineRelease['expr'];
  readonly sprig: string;
  /** Relative to tools/enginejudge. */
  readonly modfile: string;
  readonly rows: readonly EngineRelease[];
}

const EXPR_SHORT = { 'github.com/antonmedv/expr': 'antonmedv', 'github.com/expr-lang/expr': 'expr-lang' } as const;

export function engineBuilds(rows: readonly EngineRelease[] = ENGINE_RELEASES): EngineBuild[] {
  const builds = new Map<string, EngineBuild>();
  for (const row of rows) {
    for (const version of row.notificationsEngine) {
      const name = `ne-${version}_${EXPR_SHORT[row.expr.module]}-v${row.expr.version}_sprig-v${row.sprig}`;
      const known = builds.get(name);
      builds.set(name, {
        name,
        notificationsEngine: version,
        expr: row.expr,
        sprig: row.sprig,
        modfile: `modfiles/${name}.mod`,
        rows: [...(known?.rows ?? []), row],
      });
    }
  }
  return [...builds.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}
