/**
 * Fuzzing the boundary and the whole pipeline with fast-check (fixed seed, so a failure reproduces):
 * - malformed cluster files of every kind exit 2 through the real CLI, name the field and write nothing;
 * - random valid cluster files load, render byte-identically twice, and pass every verify rule.
 * propertyRuns (20 in npm test, 100 in test:slow) sets the malformed cases; valid cases are a hundredth of them, at
 * least 2 (each renders twice and verifies). `npm run fuzz` runs 30000; FUZZ_SEED picks another seed.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { loadClusterFile } from '../../src/clusters';
import { secretLikeReason } from '../../src/config/secret-values';
import { shownPath } from '../../src/config/shown-input';
import { type ClusterFile } from '../../src/config/schema';
import { clusterFileSchema } from '../../src/clusters';
import { renderCluster } from '../../src/render/render-cluster';
import { verifyCluster } from '../../src/verify/run';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { propertyRuns } from '../helpers/property-runs';

const RUNS = propertyRuns(20);
const VALID_RUNS = Math.max(2, Math.round(RUNS / 100));
const SEED = Number(process.env.FUZZ_SEED ?? 20261005);
const tried: Record<string, number> = {};
/** Longer runs get longer timeouts (the default 20 s fits the default runs on a busy 2-core machine). */
const timeout = (cases: number, millisEach: number) => Math.max(20_000, cases * millisEach);

// ---------------------------------------------------------------- malformed files

type FieldType = 'label' | 'string' | 'int' | 'bool' | 'labels' | 'record';
/** Every leaf of the cluster file with its type; `label`: a string the schema checks with a pattern. */
const FIELDS: readonly [path: string, type: FieldType][] = [
  ['name', 'label'],
  ['kubernetesVersion', 'label'],
  ['relay.ip', 'label'],
  ['relay.port', 'int'],
  ['relay.scheme', 'label'],
  ['relay.path', 'label'],
  ['relay.tokenSecretKey', 'label'],
  ['rollouts.namespace', 'label'],
  ['rollouts.resyncSeconds', 'int'],
  ['tracked.namespaces', 'labels'],
  ['argocd.namespace', 'label'],
  ['argocd.context', 'record'],
  ['prune.schedule', 'label'],
  ['prune.image', 'label'],
  ['veridor.image', 'label'],
  ['veridor.namespaces', 'labels'],
  ['veridor.clusterTemplate', 'bool'],
  ['veridor.configMap', 'label'],
  ['veridor.secret', 'label'],
  ['veridor.failOn', 'label'],
  ['veridor.waitForTargetSeconds', 'int'],
  ['gitops.repo', 'string'],
  ['gitops.path', 'label'],
  ['gitops.baseBranch', 'label'],
];
/** Fields with a length limit, where a huge string is always wrong. */
const BOUNDED = [
  'name',
  'relay.tokenSecretKey',
  'rollouts.namespace',
  'argocd.namespace',
  'prune.image',
  'veridor.image',
  'veridor.configMap',
  'veridor.secret',
];
/** Every key the schema knows at any level: an unknown key is none of them. */
const KNOWN_KEYS = new Set(
  Object.keys(clusterFileSchema.shape).flatMap((key) => {
    const shape = (clusterFileSchema.shape as Record<string, any>)[key];
    const inner = shape?.def?.innerType ?? shape;
    return [key, ...Object.keys(inner?.shape ?? inner?.def?.in?.shape ?? {})];
  }),
);
const SECTIONS = ['', 'relay', 'rollouts', 'tracked', 'argocd', 'prune', 'veridor', 'gitops'];
const ODD_CHARACTERS = [
  '\u200b',
  '\u202e',
  '\u00a0',
  '\ufeff',
  'é',
  'Ａ',
  '１',
  '🚀',
  'a\u0301',
  '\u0000',
  '\u2028',
  'İ',
  'ß',
  '\ud7ff',
];

interface Malformed {
  readonly kind: string;
  readonly text: string;
  /** Some line of stderr must start with `<file>: ` and then match this. */
  readonly expected: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function withField(path: string, value: unknown): ClusterFile {
  const file = structuredClone(validClusterFile({ name: 'prod' })) as Record<string, any>;
  const keys = path.split('.');
  let node = file;
  for (const key of keys.slice(0, -1)) node = node[key] ??= {};
  node[keys.at(-1)!] = value;
  return file as ClusterFile;
}

function valueAt(path: string): unknown {
  return path.split('.').reduce<any>((node, key) => node?.[key], withField('gitops.path', 'clusters/prod/glidepath'));
}

const wrongValue = (type: FieldType) => {
  const all = {
    string: fc.string({ maxLength: 8 }),
    number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
    bool: fc.boolean(),
    null: fc.constant(null),
    array: fc.array(fc.integer(), { maxLength: 3 }),
    object: fc.dictionary(fc.constantFrom('a', 'b'), fc.integer(), { minKeys: 1, maxKeys: 2 }),
  };
  const wrong: Record<FieldType, (keyof typeof all)[]> = {
    label: ['number', 'bool', 'null', 'array', 'object'],
    string: ['number', 'bool', 'null', 'array', 'object'],
    int: ['string', 'bool', 'null', 'array', 'object'],
    bool: ['string', 'number', 'null', 'array', 'object'],
    labels: ['string', 'number', 'bool', 'null', 'object'],
    record: ['string', 'number', 'bool', 'array'],
  };
  return fc.oneof(...wrong[type].map((name) => all[name]));
};

const wrongType: fc.Arbitrary<Malformed> = fc
  .constantFrom(...FIELDS)
  .chain(([path, type]) => wrongValue(type).map((value) => ({ path, type, value })))
  .filter(
    ({ type, value }) =>
      !(type === 'int' && typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 600),
  )
  .map(({ path, value }) => ({
    kind: 'wrong type',
    text: stringify(withField(path, value)),
    expected: new RegExp(`^${escape(path)}: `),
  }));

const unknownKey: fc.Arbitrary<Malformed> = fc
  .tuple(
    fc.constantFrom(...SECTIONS),
    fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 })),
    fc.jsonValue({ maxDepth: 1 }),
  )
  .filter(([, key]) => !KNOWN_KEYS.has(key) && key !== '__proto__' && secretLikeReason(key) === undefined)
  .map(([section, key, value]) => {
    const file = withField('gitops.path', 'clusters/prod/glidepath') as Record<string, any>;
    (section === '' ? file : (file[section] ??= {}))[key] = value;
    // A key that could not be a field name is shown cut and quoted, like a value.
    const field = shownPath(section === '' ? [key] : [section, key]);
    return { kind: 'unknown key', text: stringify(file), expected: new RegExp(`^${escape(field)}: unknown key`) };
  });

const hugeString: fc.Arbitrary<Malformed> = fc
  .tuple(fc.constantFrom(...BOUNDED), fc.integer({ min: 300, max: 30_000 }), fc.constantFrom('a', '-', '7', 'é'))
  .map(([path, length, unit]) => ({
    kind: 'huge string',
    text: stringify(withField(path, unit.repeat(length))),
    expected: new RegExp(`^${escape(path)}: `),
  }));

const oddUnicode: fc.Arbitrary<Malformed> = fc
  .tuple(
    fc.constantFrom(
      ...FIELDS.filter(([path, type]) => type === 'label' && path !== 'prune.schedule' && valueAt(path) !== undefined),
    ),
    fc.constantFrom(...ODD_CHARACTERS),
    fc.nat(),
  )
  .map(([[path], odd, at]) => {
    const value = String(valueAt(path));
    const position = at % (value.length + 1);
    return {
      kind: 'odd unicode',
      text: stringify(withField(path, value.slice(0, position) + odd + value.slice(position))),
      expected: new RegExp(`^${escape(path)}: `),
    };
  });

const octet = fc.integer({ min: 0, max: 255 });
const badIp: fc.Arbitrary<Malformed> = fc
  .oneof(
    fc
      .tuple(octet, octet, octet, fc.integer({ min: 256, max: 99999 }))
      .map((p) => fc.shuffledSubarray(p, { minLength: 4, maxLength: 4 }))
      .chain((p) => p)
      .map((p) => p.join('.')),
    fc
      .array(octet, { minLength: 1, maxLength: 7 })
      .filter((p) => p.length !== 4)
      .map((p) => p.join('.')),
    fc
      .tuple(octet, octet, octet, octet, fc.constantFrom('a', ' ', '/24', ':80', '.'))
      .map(([a, b, c, d, junk]) => `${a}.${b}.${c}.${d}${junk}`),
    fc.constantFrom(
      '::g',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      'fe80::1%',
      '[::1]',
      'localhost',
      '',
      ' ',
      '0x7f.0.0.1',
      '1.2.3.04',
    ),
  )
  .map((ip) => ({
    kind: 'bad IP',
    text: stringify(withField('relay.ip', ip)),
    expected: /^relay\.ip: must be an IPv4 or IPv6 address/,
  }));

const cronToken = fc.oneof(fc.constantFrom('*', '*/5', '1-5', 'MON', 'JAN', '0', '?'), fc.nat({ max: 59 }).map(String));
const badCron: fc.Arbitrary<Malformed> = fc
  .oneof(
    fc
      .array(cronToken, { minLength: 1, maxLength: 8 })
      .filter((p) => p.length !== 5)
      .map((p) => p.join(' ')),
    fc
      .tuple(
        fc.nat({ max: 4 }),
        fc.constantFrom(
          '60',
          '99',
          '24',
          '32',
          '13',
          '7',
          '*/0',
          '5-1',
          'FOO',
          ',',
          ',,',
          '1-2-3',
          '**',
          '-1',
          '1/2/3',
          'L',
          '#',
        ),
      )
      .map(([field, bad]) => {
        const fields = ['17', '*/6', '*', '*', '*'];
        const limits = [60, 24, 32, 13, 7];
        fields[field] = ['60', '99', '24', '32', '13', '7'].includes(bad)
          ? String(Math.max(Number(bad), limits[field]!))
          : bad;
        return fields.join(' ');
      }),
    fc.constantFrom(
      '@every 5m ',
      ' @daily',
      '@every 5',
      '@reboot',
      'TZ=UTC 0 * * * *',
      'CRON_TZ=Europe/Paris 0 * * * *',
      '',
      '0 0 31 2 *',
      '0 0 30 2 *',
    ),
  )
  .map((schedule) => ({
    kind: 'bad cron',
    text: stringify(withField('prune.schedule', schedule)),
    expected: /^prune\.schedule: /,
  }));

/** Control characters and invalid UTF-8 are refused before parsing, with their line. */
const YAML_PROBLEM =
  /^(line \d+, column \d+: not valid YAML|line \d+: (holds the control character|not valid UTF-8)|line \d+, column \d+: YAML: .*needs no aliases|the file must be a YAML mapping|not a cluster file: |\[".*"\]|\(top level\)|[\w.[\]]+: )/;
const yamlBomb: fc.Arbitrary<Malformed> = fc
  .tuple(fc.integer({ min: 3, max: 9 }), fc.integer({ min: 6, max: 12 }))
  .map(([levels, width]) => {
    const lines = ['a0: &a0 [lol]'];
    for (let level = 1; level <= levels; level++)
      lines.push(`a${level}: &a${level} [${Array.from({ length: width }, () => `*a${level - 1}`).join(', ')}]`);
    return {
      kind: 'YAML bomb',
      text: `${stringify(validClusterFile({ name: 'prod' }))}${lines.join('\n')}\n`,
      expected: /^line \d+, column \d+: YAML: .*needs no aliases|^a0: unknown key/,
    };
  });
/** The valid file without `key`, so that a case can define `key` itself. */
const without = (key: string) => {
  const { [key]: _dropped, ...rest } = validClusterFile({ name: 'prod' }) as Record<string, unknown>;
  return stringify(rest);
};
const anchors: fc.Arbitrary<Malformed> = fc
  .constantFrom(
    ['name', 'name: *nothing\n', YAML_PROBLEM],
    ['name', 'x: &n {a: 1}\nname: *n\n', /^(name|x): /],
    ['tracked', 'tracked:\n  namespaces: &ns [shop]\n  again: *ns\n', /^tracked\.again: unknown key/],
    ['relay', 'relay: &r\n  port: 1\n  ip: 10.0.0.7\n  <<: *r\n', /^relay\.<<: unknown key/],
    ['name', 'name: &big [a, b]\nbig: *big\n', /^(name|big): /],
  )
  .map(([key, extra, expected]) => ({
    kind: 'anchors',
    text: `${extra}${without(key as string)}`,
    expected: expected as RegExp,
  }));

const notYaml: fc.Arbitrary<Malformed> = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom(
      '',
      '---\n---\n',
      '[1, 2]',
      '"just a string"',
      '42',
      'null',
      '{',
      'name: prod\n  relay: : :\n',
      '\tname: prod',
      'name: a\nname: b\n',
      '%YAML 9.9\n---\nname: x',
    ),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  )
  .filter((text) => {
    const loaded = loadClusterFileText(text);
    return 'problems' in loaded; // a random string that happens to be a valid cluster file is not malformed
  })
  .map((text) => ({ kind: 'non-YAML', text, expected: YAML_PROBLEM }));

const MALFORMED = fc.oneof(wrongType, unknownKey, hugeString, oddUnicode, badIp, badCron, yamlBomb, anchors, notYaml);

// ---------------------------------------------------------------- valid files

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/);
const minor = fc.integer({ min: 24, max: 33 });
const VALID: fc.Arbitrary<ClusterFile> = fc
  .record({
    name: label,
    minor,
    patch: fc.integer({ min: 0, max: 20 }),
    ip: fc.oneof(fc.ipV4(), fc.ipV6()),
    host: fc.option(
      fc.domain().filter((d) => /[a-z]/.test(d.split('.').at(-1)!)),
      { nil: undefined },
    ),
    port: fc.integer({ min: 1, max: 65535 }),
    scheme: fc.option(fc.constantFrom('http' as const, 'https' as const), { nil: undefined }),
    tokenSecretKey: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), { nil: undefined }),
    resync: fc.integer({ min: 60, max: 7200 }),
    bucketFraction: fc.double({ min: 0, max: 0.99, noNaN: true }),
    rolloutsNamespace: fc.option(label, { nil: undefined }),
    tracked: fc.uniqueArray(label, { minLength: 1, maxLength: 6 }),
    argocdNamespace: label,
    context: fc.dictionary(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,15}$/).filter((k) => !/token|passw|credential|secret|key/i.test(k)),
      fc.webUrl(),
      { maxKeys: 3 },
    ),
    schedule: fc.option(
      fc.constantFrom('17 */6 * * *', '0 * * * *', '*/15 * * * *', '@hourly', '@daily', '5 4 * * SUN', '0 0 1 JAN *'),
      { nil: undefined },
    ),
    clusterScope: fc.option(fc.boolean(), { nil: undefined }),
    veridorNamespaces: fc.option(fc.uniqueArray(label, { minLength: 1, maxLength: 4 }), { nil: undefined }),
    clusterTemplate: fc.option(fc.boolean(), { nil: undefined }),
    failOn: fc.option(fc.constantFrom('new', 'new+confirmed', 'confirmed+new+known'), { nil: undefined }),
    wait: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
    baseBranch: fc.option(fc.constantFrom('main', 'release/2026', 'gitops_v2'), { nil: undefined }),
  })
  .map(
    (r) =>
      ({
        name: r.name,
        kubernetesVersion: `1.${r.minor}`,
        relay: {
          ...(r.host ? { host: r.host } : { ip: r.ip }),
          port: r.port,
          ...(r.scheme ? { scheme: r.scheme } : {}),
          ...(r.tokenSecretKey ? { tokenSecretKey: r.tokenSecretKey } : {}),
        },
        rollouts: {
          resyncSeconds: r.resync,
          heartbeatBucketSeconds: Math.max(30, Math.min(r.resync - 1, Math.floor(r.resync * r.bucketFraction))),
          ...(r.rolloutsNamespace ? { namespace: r.rolloutsNamespace } : {}),
        },
        tracked: { namespaces: r.tracked },
        argocd: { namespace: r.argocdNamespace, context: r.context },
        prune: {
          ...(r.schedule ? { schedule: r.schedule } : {}),
          ...(r.clusterScope !== undefined ? { clusterScope: r.clusterScope } : {}),
        },
        veridor: {
          image: 'registry.test/security/veridor:1.0.0',
          ...(r.veridorNamespaces ? { namespaces: r.veridorNamespaces } : {}),
          ...(r.clusterTemplate !== undefined ? { clusterTemplate: r.clusterTemplate } : {}),
          ...(r.failOn ? { failOn: r.failOn } : {}),
          ...(r.wait !== undefined ? { waitForTargetSeconds: r.wait } : {}),
        },
        gitops: {
          repo: `https://github.com/hangar-io/${r.name}-gitops.git`,
          ...(r.baseBranch ? { baseBranch: r.baseBranch } : {}),
        },
      }) as unknown as ClusterFile,
  );

// ---------------------------------------------------------------- harness

const dir = clusterDir({});
const out = clusterDir({});
mkdirSync(join(out, 'prod'));
writeFileSync(join(out, 'prod', 'old.k8s.yaml'), 'kind: Previous\n');
const clusterFile = join(dir, 'prod.yaml');

function loadClusterFileText(text: string) {
  writeFileSync(clusterFile, text);
  return loadClusterFile(clusterFile);
}

const printed = capturePrintedLines();
afterAll(() => {
  // Printed on purpose: how many cases ran (the issue asks for it).
  process.stdout.write(
    `fuzz (seed ${SEED}): ${Object.entries(tried)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ')}\n`,
  );
});

describe('fuzzing cluster files', () => {
  it(
    `${RUNS} malformed files exit 2, name the field and write nothing`,
    async () => {
      await fc.assert(
        fc.asyncProperty(MALFORMED, async (bad) => {
          tried[bad.kind] = (tried[bad.kind] ?? 0) + 1;
          writeFileSync(clusterFile, bad.text);
          printed.clear();
          expect(await main(['synth', '--cluster', clusterFile, '--out', out])).toBe(2);
          const problems = printed.stderr.slice(0, -1).flatMap((line) => line.split('\n'));
          expect(printed.stderr.at(-1)).toBe('nothing was written.');
          const prefix = `${clusterFile}: `;
          expect(problems.length).toBeGreaterThan(0);
          expect(
            problems.some((line) => line.startsWith(prefix) && bad.expected.test(line.slice(prefix.length))),
            `${bad.kind}: ${bad.expected}\n${printed.stderr.join('\n').slice(0, 2000)}`,
          ).toBe(true);
          expect(readdirSync(out)).toEqual(['prod']);
          expect(readdirSync(join(out, 'prod'))).toEqual(['old.k8s.yaml']);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    timeout(RUNS, 10),
  );

  it(
    `${VALID_RUNS} random valid files render deterministically and pass every verify rule`,
    () => {
      fc.assert(
        fc.property(VALID, (file) => {
          tried['valid'] = (tried['valid'] ?? 0) + 1;
          const loaded = loadClusterFileText(stringify(file));
          if ('problems' in loaded) throw new Error(`a valid file was refused:\n${loaded.problems.join('\n')}`);
          const first = renderCluster(loaded.config);
          expect(renderCluster(loaded.config)).toEqual(first);
          const report = verifyCluster(loaded.config);
          expect(report.violations).toEqual([]);
          expect(report.checks).toBeGreaterThan(report.objects);
        }),
        { numRuns: VALID_RUNS, seed: SEED },
      );
    },
    timeout(VALID_RUNS, 600),
  );

  it('the harness can fail: the same call on a valid file exits 0, not 2', async () => {
    writeFileSync(clusterFile, stringify(validClusterFile({ name: 'prod' })));
    expect(readFileSync(clusterFile, 'utf8')).toContain('name: prod');
    expect(await main(['synth', '--cluster', clusterFile, '--out', clusterDir({})])).toBe(0);
  });
});
