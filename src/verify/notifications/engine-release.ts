/**
 * Every expression must compile and run on the expr of the release the cluster file declares, and of every later
 * release: expr before v1.16 does not parse `?.[`, before v1.15 has no `string()`. One trigger that does not
 * compile makes the engine refuse the whole ConfigMap.
 */
import { ENGINE_NAMES, missingFeatures, rowsFrom, type Engine as TableEngine } from '../../notifications/engine-versions';
import { EXPR_FEATURE_SYNTAX, featuresOf } from '../../notifications/expr/features';
import { declaredReleases } from '../../notifications/support/engine-support';
import { conditions } from './engines';
import type { NotificationRule } from './rule';

const TABLE_ENGINE = { rollouts: 'argo-rollouts', argocd: 'argo-cd' } as const satisfies Record<string, TableEngine>;
const RELEASE_FIELD = { rollouts: 'rollouts.controllerVersion', argocd: 'argocd.version' } as const;

export const engineRelease: NotificationRule = {
  name: 'engine-release',
  engines: ['rollouts', 'argocd'],
  reads: 'loaded',
  check: ({ loaded, engine, config }) => {
    const releases = declaredReleases(config);
    const declared = engine === 'rollouts' ? releases.rollouts : releases.argocd;
    const rows = rowsFrom(TABLE_ENGINE[engine], declared);
    return conditions(loaded).flatMap(({ condition, at }) =>
      [
        { field: 'when', expr: condition.when, text: condition.whenText },
        ...(condition.oncePer ? [{ field: 'oncePer', expr: condition.oncePer, text: condition.oncePerText! }] : []),
      ].flatMap(({ field, expr, text }) => {
        const needs = featuresOf([expr]);
        const failing = rows.filter((row) => missingFeatures(row, needs).length > 0);
        if (failing.length === 0) return [];
        const first = failing[0]!;
        const lacks = missingFeatures(first, needs).map((feature) => EXPR_FEATURE_SYNTAX[feature]).join(' and ');
        return [{
          message: `${at}.${field} ${JSON.stringify(text)} uses ${lacks}, which ${first.expr.module} v${first.expr.version} of ${ENGINE_NAMES[first.engine]} ${first.from} lacks (${RELEASE_FIELD[engine]}: ${declared})`,
          fix: 'rewrite it without them (read a key as (m ?? {})["key"], not m?.["key"]), or set the field to a release that has them (docs/engine-versions.md)',
        }];
      }),
    );
  },
};
