import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, type Document } from 'yaml';
import { main } from '../src/cli';
import { COMMANDS } from '../src/commands/registry';
import { KUSTOMIZATION_FILE } from '../src/render/kustomization';
import { renderCluster } from '../src/render/render-cluster';
import { clusterConfig, clusterDir, validClusterFile } from './helpers/cluster-files';
import { capturePrintedLines } from './helpers/console';
import { REMEMBERED } from './helpers/remembered';
import { ALSO_COVERED } from './helpers/also-covered';

const { stdout, stderr, clear } = capturePrintedLines();

/** Every file under `dir` with its content, to prove that nothing changed. */
function tree(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[path.slice(dir.length)] = readFileSync(path, 'utf8');
    }
  }
  return out;
}

/** An output folder holding an earlier render of cluster prod, recorded as glidepath's. */
function withPreviousDist(): string {
  const out = clusterDir({
    '.glidepath-out.json': JSON.stringify({ format: 1, clusters: { prod: ['old.k8s.yaml'] } }),
  });
  mkdirSync(join(out, 'prod'));
  writeFileSync(join(out, 'prod', 'old.k8s.yaml'), 'kind: Previous\n');
  return out;
}

/** The cluster folders in `out` (without glidepath's record). */
function clusterFolders(out: string): string[] {
  return readdirSync(out)
    .filter((name) => !name.startsWith('.glidepath-'))
    .sort();
}

describe('synth', () => {
  it('renders every cluster into <out>/<cluster>/ and replaces what was there', ALSO_COVERED, async () => {
    const dir = clusterDir({
      'a.yaml': validClusterFile({ name: 'prod' }),
      'b.yaml': validClusterFile({ name: 'dev' }),
    });
    const out = withPreviousDist();
    expect(await main(['synth', '--clusters', dir, '--out', out], REMEMBERED)).toBe(0);
    expect(clusterFolders(out)).toEqual(['dev', 'prod']);
    expect(readdirSync(join(out, 'prod'))).not.toContain('old.k8s.yaml');
    expect(readdirSync(join(out, 'prod'))).toContain('veridor-gate-shop.k8s.yaml');
  });

  it('says which folder it removed when a cluster file is gone (glidepath wrote it)', ALSO_COVERED, async () => {
    const both = { 'a.yaml': validClusterFile({ name: 'prod' }), 'b.yaml': validClusterFile({ name: 'dev' }) };
    const out = clusterDir({});
    const dir = clusterDir(both);
    expect(await main(['synth', '--clusters', dir, '--out', out], REMEMBERED)).toBe(0);
    clear();
    rmSync(join(dir, 'b.yaml'));
    expect(await main(['synth', '--clusters', dir, '--out', out], REMEMBERED)).toBe(0);
    expect(clusterFolders(out)).toEqual(['prod']);
    expect(stdout).toContain(
      `${join(out, 'dev')}/ removed: glidepath wrote it, and no cluster of this render has it any more`,
    );
    expect(stdout.filter((line) => line.includes('removed'))).toHaveLength(1);
  });

  it('a full synth of another clusters folder keeps what it did not render from its own (was: removed)', async () => {
    const out = clusterDir({});
    const prodDir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const devDir = clusterDir({ 'dev.yaml': validClusterFile({ name: 'dev' }) });
    expect(await main(['synth', '--clusters', prodDir, '--out', out], REMEMBERED)).toBe(0);
    clear();
    expect(await main(['synth', '--clusters', devDir, '--out', out, '--check'], REMEMBERED)).toBe(3);
    expect(stdout.filter((line) => line.includes(join(out, 'prod')))).toEqual([]);
    clear();
    expect(await main(['synth', '--clusters', devDir, '--out', out], REMEMBERED)).toBe(0);
    expect(clusterFolders(out)).toEqual(['dev', 'prod']);
    expect(stdout.filter((line) => line.includes('removed'))).toEqual([]);
    // Its own clusters folder's cluster, once its file is gone, still goes.
    rmSync(join(prodDir, 'prod.yaml'));
    writeFileSync(join(prodDir, 'stage.yaml'), JSON.stringify(validClusterFile({ name: 'stage' })));
    expect(await main(['synth', '--clusters', prodDir, '--out', out], REMEMBERED)).toBe(0);
    expect(clusterFolders(out)).toEqual(['dev', 'stage']);
  });

  it('shows a terminal escape in the output folder as ?, and in the hint as \\x1b that bash reads back', async () => {
    const both = { 'a.yaml': validClusterFile({ name: 'prod' }), 'b.yaml': validClusterFile({ name: 'dev' }) };
    const out = join(clusterDir({}), 'dist\x1b[2J');
    const dir = clusterDir(both);
    expect(await main(['synth', '--clusters', dir, '--out', out], REMEMBERED)).toBe(0);
    rmSync(join(dir, 'b.yaml'));
    expect(await main(['synth', '--clusters', dir, '--out', out], REMEMBERED)).toBe(0);
    expect(
      stdout.some((line) =>
        line.endsWith('dist?[2J/dev/ removed: glidepath wrote it, and no cluster of this render has it any more'),
      ),
    ).toBe(true);
    expect(stdout.join('\n')).not.toContain('\x1b');
    clear();
    const both2 = clusterDir(both);
    expect(await main(['synth', '--clusters', both2, '--out', out, '--check'], REMEMBERED)).toBe(3);
    expect(stdout.some((line) => /^added {3}.*dist\?\[2J\/dev\//.test(line))).toBe(true);
    // The hint types the escape as \x1b (ANSI-C quoting), so that it can be copied: bash reads back the path.
    const hint = stdout.at(-1)!.replace(/^.* --out /, '');
    expect(hint).toMatch(/^\$'.*dist\\x1b\[2J'$/);
    expect(execFileSync('bash', ['-c', `printf %s ${hint}`], { encoding: 'utf8' })).toBe(out);
    expect(stdout.join('\n')).not.toContain('\x1b');
  });

  it('--cluster renders one cluster and leaves the others in place', ALSO_COVERED, async () => {
    const dir = clusterDir({
      'a.yaml': validClusterFile({ name: 'prod' }),
      'b.yaml': validClusterFile({ name: 'dev' }),
    });
    const out = clusterDir({});
    expect(await main(['synth', '--clusters', dir, '--out', out, '--cluster', 'dev'], REMEMBERED)).toBe(0);
    expect(clusterFolders(out)).toEqual(['dev']);
    expect(await main(['synth', '--clusters', dir, '--out', out, '--cluster', 'prod'], REMEMBERED)).toBe(0);
    expect(clusterFolders(out)).toEqual(['dev', 'prod']);
  });

  it('--relay-ip changes only the relay address', ALSO_COVERED, async () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const before = clusterDir({});
    const after = clusterDir({});
    expect(await main(['synth', '--clusters', dir, '--out', before, '--cluster', 'prod'], REMEMBERED)).toBe(0);
    expect(
      await main(['synth', '--clusters', dir, '--out', after, '--cluster', 'prod', '--relay-ip', '10.1.2.3'], {
        ...REMEMBERED,
      }),
    ).toBe(0);
    const a = tree(before);
    const b = tree(after);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    for (const file of Object.keys(a)) {
      expect(b[file]).toBe(a[file]!.replaceAll('10.0.0.7', '10.1.2.3'));
    }
  });

  it('--help explains the command', async () => {
    expect(await main(['synth', '--help'], REMEMBERED)).toBe(0);
    expect(stdout.join('\n')).toContain('--relay-ip IP');
  });

  it.each(COMMANDS.map((c) => c.name))(
    '%s --help names no file of this repository that an installed package lacks',
    async (command) => {
      clear();
      expect(await main([command, '--help'], REMEMBERED)).toBe(0);
      expect(stdout.join('\n')).not.toMatch(/\b(test|src|scripts|e2e)\//);
    },
  );

  it('--stdout writes one cluster as multi-document YAML and nothing to disk', ALSO_COVERED, async () => {
    const dir = clusterDir({
      'a.yaml': validClusterFile({ name: 'prod' }),
      'b.yaml': validClusterFile({ name: 'dev' }),
    });
    const out = withPreviousDist();
    const before = tree(out);
    expect(await main(['synth', '--clusters', dir, '--cluster', 'prod', '--stdout'], REMEMBERED)).toBe(0);
    expect(stdout).toHaveLength(1);
    const documents = parseAllDocuments(`${stdout[0]}\n`) as Document[];
    // Every object but kustomize's Kustomization, which kubectl apply -f - refuses (no such API resource).
    const expected = renderCluster(clusterConfig({ name: 'prod' }))
      .filter((file) => file.path !== KUSTOMIZATION_FILE)
      .flatMap((file) => parseAllDocuments(file.content) as Document[]);
    expect(documents.map((d) => d.toJS())).toEqual(expected.map((d) => d.toJS()));
    expect(documents.map((d) => d.get('kind'))).not.toContain('Kustomization');
    expect(documents.every((d) => d.errors.length === 0)).toBe(true);
    expect(tree(out)).toEqual(before);
  });

  it('--stdout needs exactly one cluster', async () => {
    const dir = clusterDir({
      'prod.yaml': validClusterFile({ name: 'prod' }),
      'dev.yaml': validClusterFile({ name: 'dev' }),
    });
    expect(await main(['synth', '--clusters', dir, '--stdout'], REMEMBERED)).toBe(2);
    expect(stderr).toEqual(['error: --stdout writes one cluster, and 2 are selected', 'fix: add --cluster NAME']);
    expect(await main(['synth', '--clusters', dir, '--cluster', 'prod', '--stdout', '--summary'], REMEMBERED)).toBe(2);
  });

  it('--check exits 3 when the output folder would change, 0 when it is current, and writes nothing', async () => {
    const dir = clusterDir({
      'a.yaml': validClusterFile({ name: 'prod' }),
      'b.yaml': validClusterFile({ name: 'dev' }),
    });
    const out = withPreviousDist();
    const before = tree(out);
    expect(await main(['synth', '--clusters', dir, '--out', out, '--check'], REMEMBERED)).toBe(3);
    expect(stdout).toContain(`removed ${join(out, 'prod', 'old.k8s.yaml')}`);
    expect(stdout).toContain(`added   ${join(out, 'dev', 'veridor-gate-shop.k8s.yaml')}`);
    expect(tree(out)).toEqual(before);

    expect(await main(['synth', '--clusters', dir, '--out', out], REMEMBERED)).toBe(0);
    clear();
    expect(await main(['synth', '--clusters', dir, '--out', out, '--check'], REMEMBERED)).toBe(0);
    expect(stdout).toEqual([`${out}/ is up to date`]);
    // A killed synth's staged and retired folders link to the current files; the next synth removes them first.
    const leftovers = [
      join(out, '.glidepath-stage-prod-Ab12Cd'),
      join(out, '.glidepath-old-prod-4242-mf3k2a1b-9f2c01ab'),
    ];
    for (const leftover of leftovers) {
      mkdirSync(leftover);
      for (const name of readdirSync(join(out, 'prod'))) linkSync(join(out, 'prod', name), join(leftover, name));
    }
    clear();
    expect(await main(['synth', '--clusters', dir, '--out', out, '--check'], REMEMBERED)).toBe(0);
    expect(stdout).toEqual([`${out}/ is up to date`]);
    for (const leftover of leftovers) rmSync(leftover, { recursive: true });

    // A mode synth would set back is a change too (it was up to date for --check, and rewritten by synth).
    chmodSync(join(out, 'prod', 'kustomization.yaml'), 0o600);
    clear();
    expect(await main(['synth', '--clusters', dir, '--out', out, '--check'], REMEMBERED)).toBe(3);
    expect(stdout).toContain(`changed ${join(out, 'prod', 'kustomization.yaml')}`);
    chmodSync(join(out, 'prod', 'kustomization.yaml'), 0o644);

    writeFileSync(join(out, 'dev', 'veridor-gate-shop.k8s.yaml'), 'edited by hand\n');
    clear();
    expect(await main(['synth', '--clusters', dir, '--out', out, '--check'], REMEMBERED)).toBe(3);
    expect(stdout[0]).toBe(`changed ${join(out, 'dev', 'veridor-gate-shop.k8s.yaml')}`);
    expect(await main(['synth', '--clusters', dir, '--out', out, '--cluster', 'prod', '--check'], REMEMBERED)).toBe(0);
    // A cluster glidepath rendered earlier (its record says so) that is no longer in the clusters folder.
    mkdirSync(join(out, 'gone'));
    writeFileSync(join(out, 'gone', 'x.k8s.yaml'), 'kind: Old\n');
    const record = JSON.parse(readFileSync(join(out, '.glidepath-out.json'), 'utf8'));
    writeFileSync(
      join(out, '.glidepath-out.json'),
      JSON.stringify({ ...record, clusters: { ...record.clusters, gone: ['x.k8s.yaml'] } }),
    );
    expect(await main(['synth', '--clusters', dir, '--out', out, '--cluster', 'prod', '--check'], REMEMBERED)).toBe(0);
    clear();
    expect(
      await main(
        ['synth', '--clusters', clusterDir({ 'a.yaml': validClusterFile({ name: 'prod' }) }), '--out', out, '--check'],
        REMEMBERED,
      ),
    ).toBe(3);
    expect(stdout).toContain(`removed ${join(out, 'gone', 'x.k8s.yaml')}`);
  });
});

describe('a folder of cluster files as a new user keeps it', () => {
  it('warns when a file is named unlike the cluster it holds', async () => {
    const dir = clusterDir({ 'staging.yaml': validClusterFile({ name: 'prod' }) });
    expect(await main(['synth', '--clusters', dir, '--out', clusterDir({})], REMEMBERED)).toBe(0);
    expect(stderr).toEqual([
      expect.stringMatching(
        /^warning: .*staging\.yaml: name: the file holds cluster "prod"; rename the file to prod\.yaml, or set name: staging if "staging" is the cluster's name/,
      ),
    ]);
    stderr.length = 0;
    // A file name that is no cluster name is not offered as one (helper-23: it suggested name: sp ace).
    const spaced = clusterDir({ 'sp ace.yaml': validClusterFile({ name: 'prod' }) });
    expect(await main(['synth', '--clusters', spaced, '--out', clusterDir({})], REMEMBERED)).toBe(0);
    expect(stderr).toEqual([
      expect.stringMatching(
        /name: the file holds cluster "prod"; rename the file to prod\.yaml \(a cluster name is a DNS label, which the file name is not\)$/,
      ),
    ]);
    stderr.length = 0;
    expect(
      await main(
        [
          'synth',
          '--clusters',
          clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) }),
          '--out',
          clusterDir({}),
        ],
        REMEMBERED,
      ),
    ).toBe(0);
    expect(stderr).toEqual([]);
  });

  it(
    "another cluster's broken file does not block --cluster, but it does block a run of every cluster",
    ALSO_COVERED,
    async () => {
      const dir = clusterDir({
        'prod.yaml': validClusterFile({ name: 'prod' }),
        'staging.yaml': { ...validClusterFile({ name: 'staging' }), extra: 1 },
      });
      const out = clusterDir({});
      const clusterFolders = () => readdirSync(out).filter((name) => !name.startsWith('.'));
      expect(await main(['synth', '--clusters', dir, '--out', out, '--cluster', 'prod'], REMEMBERED)).toBe(0);
      expect(clusterFolders()).toEqual(['prod']);
      expect(stderr).toEqual([
        expect.stringMatching(
          /^warning: .*staging\.yaml was skipped: it is not a valid cluster file \(without --cluster this is an error\): .*staging\.yaml: extra: unknown key/,
        ),
      ]);
      stderr.length = 0;
      expect(await main(['synth', '--clusters', dir, '--out', out], REMEMBERED)).toBe(2);
      expect(stderr.join('\n')).toMatch(/staging\.yaml: extra: unknown key/);
      expect(clusterFolders()).toEqual(['prod']);
    },
  );

  it('a broken file that may be the selected cluster still fails', async () => {
    const dir = clusterDir({
      'prod.yaml': { ...validClusterFile({ name: 'prod' }), extra: 1 },
      'dev.yaml': validClusterFile({ name: 'dev' }),
    });
    expect(await main(['synth', '--clusters', dir, '--out', clusterDir({}), '--cluster', 'prod'], REMEMBERED)).toBe(2);
    expect(stderr.join('\n')).toMatch(/prod\.yaml: extra: unknown key/);
  });

  it('schema errors carry the line and column of the field, as YAML syntax errors do', async () => {
    const text = [
      'name: prod',
      'kubernetesVersion: "1.28"',
      'relay:',
      '  ip: 10.0.0',
      '  port: 30880',
      'colour: blue',
      '',
    ].join('\n');
    expect(
      await main(['synth', '--clusters', clusterDir({ 'prod.yaml': text }), '--out', clusterDir({})], {
        ...REMEMBERED,
      }),
    ).toBe(2);
    const lines = stderr.join('\n');
    expect(lines).toMatch(
      /prod\.yaml: relay\.ip: must be an IPv4 or IPv6 address, e\.g\. 192\.168\.1\.78; got "10\.0\.0" \(line 4, column 7\)$/m,
    );
    expect(lines).toMatch(/prod\.yaml: colour: unknown key; .* \(line 6, column 1\)$/m);
    expect(lines).toMatch(
      /prod\.yaml: tracked: is required \(expected object\); add it \(docs\/cluster-file\.md describes each field\) \(line 1, column 1\)$/m,
    );
  });
});

describe('bad input exits 2, names the file and field, and writes nothing', () => {
  const cases: [string, Record<string, unknown>, string[], RegExp][] = [
    [
      'unknown key',
      { 'prod.yaml': { ...validClusterFile({ name: 'prod' }), extra: 1 } },
      [],
      /prod\.yaml: extra: unknown key/,
    ],
    [
      'wrong type',
      { 'prod.yaml': validClusterFile({ name: 'prod', tracked: { namespaces: 'shop' as never } }) },
      [],
      /prod\.yaml: tracked\.namespaces: expected array, got string "shop"/,
    ],
    [
      'bad IP',
      { 'prod.yaml': validClusterFile({ name: 'prod', relay: { ip: '1.2.3', port: 1 } }) },
      [],
      /prod\.yaml: relay\.ip: must be an IPv4 or IPv6 address/,
    ],
    [
      'bad cron',
      { 'prod.yaml': validClusterFile({ name: 'prod', prune: { schedule: '* * *', image: 'k:1' } }) },
      [],
      /prod\.yaml: prune\.schedule: /,
    ],
    [
      'bad image',
      { 'prod.yaml': validClusterFile({ name: 'prod', veridor: { image: 'veridor' } }) },
      [],
      /prod\.yaml: veridor\.image: "veridor" has no tag or digest/,
    ],
    [
      'duplicate cluster name',
      { 'a.yaml': validClusterFile({ name: 'prod' }), 'b.yaml': validClusterFile({ name: 'prod' }) },
      [],
      /b\.yaml: name: cluster "prod" is already defined in .*a\.yaml/,
    ],
    ['not YAML', { 'prod.yaml': 'name: prod\n  relay: : :\n' }, [], /prod\.yaml: line \d+, column \d+: not valid YAML/],
    ['missing file', {}, ['--cluster', 'clusters/nope.yaml'], /clusters\/nope\.yaml: cannot read the file \(ENOENT\)/],
    [
      'unknown cluster',
      { 'prod.yaml': validClusterFile({ name: 'prod' }) },
      ['--cluster', 'stage'],
      /--cluster: no cluster named "stage" .*known clusters: fine, prod/,
    ],
    [
      'bad --relay-ip',
      { 'prod.yaml': validClusterFile({ name: 'prod' }) },
      ['--cluster', 'prod', '--relay-ip', '10.1.2'],
      /--relay-ip: "10\.1\.2" is not an IPv4 or IPv6 address/,
    ],
    [
      '--relay-ip with a port',
      { 'prod.yaml': validClusterFile({ name: 'prod' }) },
      ['--cluster', 'prod', '--relay-ip', '10.1.2.3:80'],
      /--relay-ip: "10\.1\.2\.3:80" is an address with a port; give the address alone \(--relay-ip 10\.1\.2\.3\), and the port in relay\.port/,
    ],
    [
      '--cluster naming a file of the clusters folder without the folder',
      { 'prod.yaml': validClusterFile({ name: 'prod' }) },
      ['--cluster', 'prod.yaml'],
      /--cluster prod\.yaml: no such file in this folder; select the cluster by its name \(--cluster prod\) or by its path \(--cluster \S+\/prod\.yaml\)/,
    ],
  ];

  it.each(cases)('%s', async (_name, files, args, message) => {
    const dir = clusterDir({ 'ok.yaml': validClusterFile({ name: 'fine' }), ...files });
    const out = withPreviousDist();
    const before = tree(out);
    expect(await main(['synth', '--clusters', dir, '--out', out, ...args], REMEMBERED)).toBe(2);
    expect(stderr.join('\n')).toMatch(message);
    expect(stderr.at(-1)).toBe('nothing was written.');
    expect(tree(out)).toEqual(before);
    expect(clusterFolders(out)).toEqual(['prod']);
  });

  it('an unknown option exits 2 with the usage', async () => {
    expect(await main(['synth', '--clsuter', 'prod'], REMEMBERED)).toBe(2);
    expect(stderr.join('\n')).toContain('error: --clsuter is not an option of synth');
    expect(stderr.join('\n')).toContain('did you mean --cluster?');
  });
});
