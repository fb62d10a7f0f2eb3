import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { clusterConfigSchema } from '../../src/clusters';
import { argocdExprFeatures } from '../../src/notifications/argocd/sync-failure-fact';
import {
  DEFAULT_ARGOCD_RELEASE,
  DEFAULT_ROLLOUTS_RELEASE,
  declaredReleases,
  engineVersionProblems,
} from '../../src/notifications/support/engine-support';
import { engineRelease, lowestSupported, releaseProblem } from '../../src/notifications/engine-versions';
import { ENGINE_RELEASES } from '../../src/notifications/engine-releases';
import { featuresOf } from '../../src/notifications/expr/features';
import { parseExpr } from '../../src/notifications/expr/parse';
import { rolloutExprFeatures } from '../../src/notifications/rollouts/rollout-fact';
import { clusterConfig, clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { renderOnce } from '../helpers/render-once';

const printed = capturePrintedLines();

function issues(overrides: Parameters<typeof validClusterFile>[0]): string[] {
  const result = clusterConfigSchema.safeParse(validClusterFile(overrides));
  if (!result.success) return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  return engineVersionProblems(result.data).map(({ field, message }) => `${field}: ${message}`);
}

/** The features of every `when` and `oncePer` in one rendered notifications ConfigMap. */
function renderedFeatures(overrides: Parameters<typeof validClusterFile>[0], file: string): string[] {
  const rendered = renderOnce(clusterConfig(overrides)).find((f) => f.path === file)!;
  const data = (parse(rendered.content) as { data: Record<string, string> }).data;
  const exprs = Object.entries(data)
    .filter(([key]) => key.startsWith('trigger.'))
    .flatMap(([, text]) =>
      (parse(text) as { when: string; oncePer?: string }[]).flatMap((c) => [c.when, ...(c.oncePer ? [c.oncePer] : [])]),
    );
  return featuresOf(exprs.map(parseExpr));
}

describe('the engine release table', () => {
  it('maps a release to the row with the greatest first release at or below it, within the table', () => {
    expect(engineRelease('argo-rollouts', '1.9.1')?.expr).toEqual({
      module: 'github.com/expr-lang/expr',
      version: '1.16.9',
    });
    expect(engineRelease('argo-rollouts', '1.8.1')?.expr.version).toBe('1.15.5');
    expect(engineRelease('argo-rollouts', '1.6.1')?.expr.version).toBe('1.13.0');
    expect(engineRelease('argo-cd', '2.14.11')?.expr).toEqual({
      module: 'github.com/antonmedv/expr',
      version: '1.15.1',
    });
    expect(engineRelease('argo-cd', '3.5.9')?.expr.version).toBe('1.17.8');
    expect(engineRelease('argo-cd', '3.6.0')).toBeUndefined();
    expect(engineRelease('argo-cd', '2.5.9')).toBeUndefined();
  });

  it('lists each engine in release order', () => {
    for (const engine of ['argo-rollouts', 'argo-cd'] as const) {
      const rows = ENGINE_RELEASES.filter((row) => row.engine === engine);
      expect(rows.map((row) => row.from)).toEqual(rows.map((row) => row.read[0]));
      const all = rows.flatMap((row) => row.read);
      expect(all).toEqual([...all].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));
    }
  });

  it('gives the lowest release whose expr has what glidepath renders', () => {
    expect(lowestSupported('argo-rollouts', rolloutExprFeatures())).toBe('1.6.2');
    expect(lowestSupported('argo-cd', argocdExprFeatures(false))).toBe('2.6.1');
    expect(lowestSupported('argo-cd', argocdExprFeatures(true))).toBe('2.9.0');
    expect([DEFAULT_ROLLOUTS_RELEASE, DEFAULT_ARGOCD_RELEASE]).toEqual(['1.6.2', '2.6.1']);
  });

  it('declares exactly the features of the rendered triggers', () => {
    expect(renderedFeatures({}, 'rollouts-notifications.k8s.yaml')).toEqual(rolloutExprFeatures());
    expect(renderedFeatures({}, 'argocd-notifications.k8s.yaml')).toEqual(argocdExprFeatures(false));
    const retry = { argocd: { namespace: 'argocd-apps', retryFacts: true, version: '2.9.0' } };
    expect(renderedFeatures(retry, 'argocd-notifications.k8s.yaml')).toEqual(argocdExprFeatures(true));
  });

  it('renders no ?.[ (antonmedv/expr 1.15 cannot parse it) and reads the release-id through (m ?? {})[key]', () => {
    expect(rolloutExprFeatures()).not.toContain('optional-index');
    const rendered = renderOnce(clusterConfig())
      .map((file) => file.content)
      .join('\n');
    expect(rendered).not.toContain('?.[');
    expect(rendered).toContain('(rollout.metadata?.annotations ?? {})["hangar.io/release-id"]');
  });
});

describe("the Argo CD 3.1 and 3.2 rows, against every patch release's go.mod", () => {
  // Read from each tag's go.mod (test/fixtures/engine-versions/); the module proxy serves only some of them.
  const { releases } = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'fixtures', 'engine-versions', 'argo-cd-3.1-3.2-go-mod.json'), 'utf8'),
  ) as {
    releases: Record<string, { notificationsEngine: string; expr: string; sprig: string }>;
  };

  it('covers every 3.1 and 3.2 patch', () => {
    expect(Object.keys(releases).filter((release) => release.startsWith('3.1.'))).toHaveLength(17);
    expect(Object.keys(releases).filter((release) => release.startsWith('3.2.'))).toHaveLength(13);
  });

  it.each(Object.entries(releases))('Argo CD %s takes the row of its own pins', (release, pins) => {
    const row = engineRelease('argo-cd', release)!;
    expect(row.read).toContain(release);
    expect(row.notificationsEngine).toContain(pins.notificationsEngine);
    expect({ expr: `v${row.expr.version}`, sprig: `v${row.sprig}` }).toEqual({ expr: pins.expr, sprig: pins.sprig });
  });
});

describe('engine versions in the cluster file', () => {
  it('refuses a Rollouts release whose expr lacks string(), naming the expr and the lowest supported release', () => {
    expect(issues({ rollouts: { controllerVersion: '1.6.0' } })).toEqual([
      expect.stringMatching(
        /^rollouts\.controllerVersion: Argo Rollouts 1\.6\.0 builds its notifications with github\.com\/antonmedv\/expr v1\.13\.0, which lacks the builtin `string\(\)`, used by glidepath's Rollouts trigger; the lowest supported release is 1\.6\.2/,
      ),
    ]);
    expect(issues({ rollouts: { controllerVersion: '1.6.2' } })).toEqual([]);
  });

  it('refuses argocd.retryFacts below Argo CD 2.9.0, also when argocd.version is unset', () => {
    const base = { namespace: 'argocd-apps', retryFacts: true };
    expect(issues({ argocd: { ...base, version: '2.8.4' } })).toEqual([
      expect.stringMatching(/^argocd\.version: Argo CD 2\.8\.4 .*v1\.12\.5.*lowest supported release is 2\.9\.0/),
    ]);
    expect(issues({ argocd: base })).toEqual([
      expect.stringMatching(
        /lowest supported release is 2\.9\.0.*\(argocd\.version is unset, so 2\.6\.1 is assumed\)$/,
      ),
    ]);
    expect(issues({ argocd: { ...base, version: '2.9.0' } })).toEqual([]);
  });

  it('refuses releases outside the table and malformed ones', () => {
    expect(issues({ argocd: { namespace: 'a', version: '3.6.0' } })).toEqual([
      expect.stringMatching(/newer than the table \(newest: 3\.5\.x\); set this field to 3\.5\.7, the newest listed/),
    ]);
    expect(issues({ argocd: { namespace: 'a', version: '2.5.0' } })).toEqual([
      expect.stringMatching(/older than every release in the table; the lowest supported is 2\.6\.1/),
    ]);
    expect(issues({ rollouts: { controllerVersion: 'v1.9.1' } })).toEqual([
      'rollouts.controllerVersion: must be a release of three numbers in quotes, e.g. "1.9.1"',
    ]);
    expect(issues({ argocd: { namespace: 'a', version: 'v2.14.11' } })).toEqual([
      'argocd.version: must be a release of three numbers in quotes, e.g. "2.14.11"',
    ]);
  });

  it('assumes the oldest supported release when the file does not say', () => {
    expect(declaredReleases(clusterConfig())).toEqual({
      rollouts: DEFAULT_ROLLOUTS_RELEASE,
      argocd: DEFAULT_ARGOCD_RELEASE,
    });
    expect(declaredReleases(clusterConfig({ rollouts: { controllerVersion: '1.9.1' } })).rollouts).toBe('1.9.1');
  });

  it('makes synth exit 2 naming the file and the field, and write nothing', async () => {
    const dir = clusterDir({ 'old.yaml': validClusterFile({ name: 'old', rollouts: { controllerVersion: '1.6.0' } }) });
    const out = join(mkdtempSync(join(tmpdir(), 'glidepath-out-')), 'dist');
    expect(await main(['synth', '--clusters', dir, '--out', out])).toBe(2);
    expect(printed.stderr[0]).toMatch(
      /old\.yaml: rollouts\.controllerVersion: Argo Rollouts 1\.6\.0 .* the lowest supported release is 1\.6\.2/,
    );
    expect(printed.stderr.at(-1)).toBe('nothing was written.');
    expect(existsSync(out)).toBe(false);
    // The line of the field, as every other cluster file message has it (before: none).
    const line =
      readFileSync(join(dir, 'old.yaml'), 'utf8')
        .split('\n')
        .findIndex((l) => /controllerVersion:/.test(l)) + 1;
    expect(printed.stderr[0]).toMatch(
      new RegExp(`upgrade, then set this field to the running release \\(line ${line}\\)$`),
    );
  });

  it('says nothing for a supported release', () => {
    expect(releaseProblem('argo-rollouts', '1.9.1', rolloutExprFeatures(), 'x')).toBeUndefined();
  });
});
