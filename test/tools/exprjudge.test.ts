/** The expr judge's inputs, without Go: its builds follow the table, and its expectations follow the feature table. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineRelease } from '../../src/notifications/engine-versions';
import { ENGINE_RELEASES } from '../../src/notifications/engine-releases';
import { buildsOf } from '../../tools/exprjudge/builds';
import {
  controlConfigMaps,
  expectations,
  mustPass,
  notificationConfigMaps,
  shippedClusters,
} from '../../tools/exprjudge/cases';

const JUDGE = join(import.meta.dirname, '..', '..', 'tools', 'exprjudge');
const builds = buildsOf(ENGINE_RELEASES);
const clusters = shippedClusters(join(import.meta.dirname, '..', '..', 'clusters'));
const row = (engine: 'argo-rollouts' | 'argo-cd', release: string) => engineRelease(engine, release)!;

describe('the judge builds', () => {
  it(
    'are one per expr module, expr version and sprig version of the table, each with a committed modfile and ' +
      'go.sum',
    () => {
      expect(builds.map((b) => b.name)).toContain('antonmedv-expr-v1.15.5_sprig-v3.2.3');
      expect(new Set(ENGINE_RELEASES.map((r) => `${r.expr.module}@${r.expr.version}+${r.sprig}`)).size).toBe(
        builds.length,
      );
      const files = readdirSync(join(JUDGE, 'modfiles')).sort();
      expect(files).toEqual(builds.flatMap((b) => [`${b.name}.mod`, `${b.name}.sum`]).sort());
    },
  );

  it('require exactly the expr and sprig versions of their rows', () => {
    for (const build of builds) {
      const modfile = readFileSync(join(JUDGE, build.modfile), 'utf8');
      expect(modfile).toContain(`\t${build.module} v${build.version}`);
      expect(modfile).toContain(`\tgithub.com/Masterminds/sprig/v3 v${build.sprig}`);
      const other =
        build.module === 'github.com/antonmedv/expr' ? 'github.com/expr-lang/expr' : 'github.com/antonmedv/expr';
      expect(modfile).not.toContain(other);
    }
  });

  it('keep go.mod and go.sum equal to the newest build, for editors and go vet', () => {
    const newest = builds.filter((b) => b.module === 'github.com/expr-lang/expr').at(-1)!;
    expect(readFileSync(join(JUDGE, 'go.mod'), 'utf8')).toBe(readFileSync(join(JUDGE, newest.modfile), 'utf8'));
    expect(readFileSync(join(JUDGE, 'go.sum'), 'utf8')).toBe(
      readFileSync(join(JUDGE, newest.modfile.replace(/\.mod$/, '.sum')), 'utf8'),
    );
  });
});

describe('what the judge must answer', () => {
  const prodRollouts = notificationConfigMaps(clusters.find((c) => c.name === 'prod')!).find(
    (cm) => cm.engine === 'argo-rollouts',
  )!;
  const controls = controlConfigMaps(clusters);

  it('judges every row a cluster can upgrade to from the release it declares', () => {
    expect(prodRollouts.declared).toBe('1.9.1');
    expect(
      ENGINE_RELEASES.filter((r) => r.engine === 'argo-rollouts' && mustPass(r, '1.9.1')).map((r) => r.from),
    ).toEqual(['1.9.0', '1.10.0']);
    expect(
      ENGINE_RELEASES.filter((r) => r.engine === 'argo-rollouts' && mustPass(r, '1.6.4')).map((r) => r.from),
    ).toEqual(['1.6.2', '1.7.0', '1.9.0', '1.10.0']);
  });

  it(
    'expects the shipped trigger to fail only where string() is missing, and to pass from the declared release ' + 'on',
    () => {
      const state = 'trigger.glidepath-rollout-state[0]';
      expect(expectations(prodRollouts, row('argo-rollouts', '1.6.0')).get(`${state}.when`)).toBe('fail');
      expect(expectations(prodRollouts, row('argo-rollouts', '1.7.2')).get(`${state}.oncePer`)).toBe('pass');
      expect(expectations(prodRollouts, row('argo-rollouts', '1.9.1')).get(`${state}.oncePer`)).toBe('pass');
      expect(expectations(prodRollouts, row('argo-rollouts', '1.9.1')).get('template.glidepath-rollout-fact')).toBe(
        'pass',
      );
    },
  );

  it("expects glidepath's earlier ?.[ read to fail on every antonmedv/expr row and pass on expr-lang/expr", () => {
    const features = controls.find((cm) => cm.engine === 'argo-rollouts' && cm.ref.includes('one feature'))!;
    const verdicts = ENGINE_RELEASES.filter((r) => r.engine === 'argo-rollouts').map((r) => [
      r.from,
      expectations(features, r).get('trigger.control-previous-release-id-read[0].when'),
    ]);
    expect(verdicts).toEqual([
      ['1.6.0', 'fail'],
      ['1.6.2', 'fail'],
      ['1.7.0', 'fail'],
      ['1.9.0', 'pass'],
      ['1.10.0', 'pass'],
    ]);
  });

  it('expects the retry trigger to fail below Argo CD 2.9', () => {
    const retry = controls.find((cm) => cm.ref.includes('retryFacts'))!;
    const verdicts = (item: string) =>
      ['2.6.1', '2.8.0', '2.9.0', '3.5.0'].map((release) =>
        expectations(retry, row('argo-cd', release)).get(`trigger.glidepath-sync-retry[0].${item}`),
      );
    // `??` (the when) arrives with v1.12.5 (Argo CD 2.8); string() (the oncePer) with v1.15 (2.9).
    expect(verdicts('when')).toEqual(['fail', 'pass', 'pass', 'pass']);
    expect(verdicts('oncePer')).toEqual(['fail', 'fail', 'pass', 'pass']);
  });
});
