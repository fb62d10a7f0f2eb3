/**`--json` of verify, check-live and synth (diff and pr: json-output-gitops.slow.test.ts): each run's stdout is one
 * JSON document that the shipped JSON Schema (schema/glidepath.<command>.v1.json, written by `npm run docs`) accepts,
 * and that says what the text says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import type { Renderer } from '../../src/commands/command';
import { JSON_DOCUMENTS, jsonDocumentSchema, jsonLine } from '../../src/json-output/shapes';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines, cliLines } from '../helpers/console';
import { renderOnce } from '../helpers/render-once';
import { REMEMBERED } from '../helpers/remembered';
import { readyProd } from '../live/recorded-prod';
import { useLiveHarness } from '../live/harness';
import { documentOf, SCHEMA_DIR, validators, type DocumentName } from './documents';
import { ALSO_COVERED } from '../helpers/also-covered';

describe('the shipped JSON Schemas', () => {
  it.each(Object.keys(JSON_DOCUMENTS) as DocumentName[])(
    'schema/glidepath.%s.v1.json is current (npm run docs writes it)',
    (name) => {
      expect(readFileSync(join(SCHEMA_DIR, `glidepath.${name}.v1.json`), 'utf8')).toBe(jsonDocumentSchema(name));
    },
  );

  it('refuses a document with a key the shape does not have, or without one it requires', () => {
    const document = {
      schema: 'glidepath.check-live/v1',
      cluster: 'prod',
      file: 'clusters/prod.yaml',
      ready: true,
      findings: [],
    };
    expect(validators['check-live']!(document)).toBe(true);
    expect(validators['check-live']!({ ...document, extra: 1 })).toBe(false);
    const { ready: _ready, ...withoutReady } = document;
    expect(validators['check-live']!(withoutReady)).toBe(false);
    expect(validators['check-live']!({ ...document, schema: 'glidepath.check-live/v2' })).toBe(false);
  });
});

describe('verify --json', () => {
  const planting: Renderer = (config) => [
    ...renderOnce(config),
    {
      path: 'planted.k8s.yaml',
      content:
        'apiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\n  namespace: shop\nspec:\n  containers:\n    - ' +
        'name: sh\n      image: busybox:1.36\n      securityContext:\n        privileged: true\n',
    },
  ];

  it('every shipped cluster, no violation: ok, exit 0', ALSO_COVERED, async () => {
    const { stdout, sinks } = cliLines();
    expect(await main(['verify', '--json'], { ...sinks, ...REMEMBERED })).toBe(0);
    const document = documentOf('verify', stdout);
    expect(document.ok).toBe(true);
    expect((document.clusters as { cluster: string }[]).map((c) => c.cluster)).toEqual(
      expect.arrayContaining(['dev', 'prod']),
    );
  });

  it('a violation: listed with its rule and fix, ok false, exit 1', async () => {
    const { stdout, sinks } = cliLines();
    expect(await main(['verify', '--cluster', 'prod', '--json'], { ...sinks, render: planting })).toBe(1);
    const document = documentOf('verify', stdout) as {
      ok: boolean;
      clusters: { violations: { object: string; rule: string; fix: string }[] }[];
      totals: { violations: number };
    };
    expect(document.ok).toBe(false);
    expect(document.clusters[0]!.violations).toContainEqual(
      expect.objectContaining({
        object: 'Pod/shop/debug',
        rule: 'pod-security/privileged',
        fix: 'set securityContext.privileged: false or remove it',
      }),
    );
    expect(document.totals.violations).toBe(document.clusters[0]!.violations.length);
  });
});

describe('synth --json', () => {
  it('lists each folder and its files; with --summary, the prerequisites and the budget', async () => {
    const { stdout, sinks } = cliLines();
    const clusters = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const out = clusterDir({});
    expect(
      await main(['synth', '--clusters', clusters, '--out', out, '--summary', '--json'], {
        ...sinks,
        ...REMEMBERED,
      }),
    ).toBe(0);
    const document = documentOf('synth', stdout) as {
      written: boolean;
      clusters: {
        folder: string;
        files: string[];
        prerequisites: { kind: string }[];
        budget: { worstCaseKeys: number };
      }[];
    };
    expect(document.written).toBe(true);
    const [prod] = document.clusters;
    expect(prod!.folder).toBe(`${out}/prod`);
    expect(prod!.files).toContain('kustomization.yaml');
    expect(prod!.prerequisites.map((p) => p.kind)).toEqual(
      expect.arrayContaining(['secret', 'label', 'veridor', 'chart', 'versions']),
    );
    expect(prod!.budget.worstCaseKeys).toBeGreaterThan(0);

    stdout.length = 0;
    expect(
      await main(['synth', '--clusters', clusters, '--out', out, '--check', '--json'], {
        ...sinks,
        ...REMEMBERED,
      }),
    ).toBe(0);
    expect(documentOf('synth', stdout)).toMatchObject({ written: false, changes: [] });
  });
});

describe('check-live --json', () => {
  const printed = capturePrintedLines();
  const { checkLive } = useLiveHarness(printed);

  it('a ready cluster: ready, each finding with ok', async () => {
    const { code, out } = await checkLive(readyProd().calls, ['--context', 'prod-admin', '--json']);
    expect(code).toBe(0);
    const document = documentOf('check-live', [out]) as {
      ready: boolean;
      context: string;
      findings: { ok: boolean }[];
    };
    expect(document).toMatchObject({ cluster: 'prod', context: 'prod-admin', ready: true });
    expect(document.findings.length).toBeGreaterThan(5);
    expect(document.findings.every((f) => f.ok)).toBe(true);
  });
});

describe('every --json line', () => {
  it('writes DEL, C1 and the bidirectional characters as \\u escapes: the same text, nothing a terminal reads', () => {
    const document = { schema: 'glidepath.test/v1', value: 'a\u007f\u009b2J\u202eb\u2028c\u001b[2J' };
    const line = jsonLine(document);
    expect(line).toBe('{"schema":"glidepath.test/v1","value":"a\\u007f\\u009b2J\\u202eb\\u2028c\\u001b[2J"}');
    expect(JSON.parse(line)).toEqual(document);
  });
});
