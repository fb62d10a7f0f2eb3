// npm run bench: times synth as whole processes (median of RUNS after a warm-up, min, max, CPU, peak memory),
// side by side with `cdk8s synth`, and for generated fleets of 10, 100 and 1,000 clusters; and `npm test` (wall and
// CPU, as it prints them); writes bench/results.md.
//   BENCH_RUNS=7 npm run bench          more runs
//   BENCH_FLEETS=10,100 npm run bench   other fleet sizes
//   BENCH_TESTS=0 npm run bench         without the npm test row
//   BENCH_PR=0 npm run bench            without the `pr --all` rows (their section of results.md is kept)
//   BENCH_ONLY=pr npm run bench         only the `pr --all` rows (their section of results.md is rewritten)
//   BENCH_PR_FLEETS=10,100,300          fleet sizes of the `pr --all` rows
//   BENCH_NAMESPACES=2000 npm run bench  tracked namespaces of the one-cluster synth and verify rows (0: none)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { bundle, ROOT } from '../scripts/bundle.mjs';
import { childrenCpuSeconds } from '../scripts/process-cpu.mjs';

/** bench/results.md as Prettier writes it, so that `npm run lint` passes after a bench. */
async function writeResults(path, text) {
  writeFileSync(path, await format(text, { ...(await resolveConfig(path)), filepath: path }));
}

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const FLEETS = (process.env.BENCH_FLEETS ?? '10,100,1000').split(',').map(Number);
const TESTS = process.env.BENCH_TESTS !== '0';
const PR_FLEETS = (process.env.BENCH_PR_FLEETS ?? '10,30,100').split(',').map(Number);
const ONLY_PR = process.env.BENCH_ONLY === 'pr';
const SKIP_PR = process.env.BENCH_PR === '0';
const NAMESPACES_PER_CLUSTER = 20;
const SAMPLE_MS = 10;
const work = mkdtempSync(join(tmpdir(), 'glidepath-bench-'));

/** Peak resident memory (VmHWM) of a process and its descendants, in bytes: the largest one. */
function peakOfTree(pid) {
  let peak = 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean)) {
      peak = Math.max(peak, peakOfTree(Number(child)));
    }
  } catch {
    // the process ended between two reads
  }
  return peak;
}

/** Runs a command to completion; returns wall seconds, CPU seconds and peak memory. Fails loudly on a non-zero exit. */
function timeProcess(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const cpuBefore = childrenCpuSeconds();
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stderr = '';
    let peak = 0;
    child.stderr.on('data', (d) => (stderr += d));
    const sampler = setInterval(() => (peak = Math.max(peak, peakOfTree(child.pid))), SAMPLE_MS);
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      clearInterval(sampler);
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}\n${stderr}`));
      else resolve({ seconds, peak, cpu: childrenCpuSeconds() - cpuBefore });
    });
  });
}

/** `args`: the command's arguments, or a function of the run's number (0 is the warm-up) that gives them. */
async function measure(label, command, args, clusters) {
  const argsOf = typeof args === 'function' ? args : () => args;
  await timeProcess(command, argsOf(0)); // warm-up: file cache, bundle freshness
  const runs = [];
  for (let i = 1; i <= RUNS; i++) runs.push(await timeProcess(command, argsOf(i)));
  const times = runs.map((r) => r.seconds).sort((a, b) => a - b);
  const row = {
    label,
    clusters,
    median: times[Math.floor(times.length / 2)],
    min: times[0],
    max: times.at(-1),
    cpu: runs.map((r) => r.cpu).sort((a, b) => a - b)[Math.floor(runs.length / 2)],
    peakMb: Math.max(...runs.map((r) => r.peak)) / 2 ** 20,
  };
  console.error(
    `${label}: median ${row.median.toFixed(3)} s, ${row.cpu.toFixed(2)} CPU s, peak ${row.peakMb.toFixed(0)} MB`,
  );
  return row;
}

/**
 * `shared`: every cluster tracks app-00..app-19, as a fleet of the same apps does; otherwise no two clusters share one.
 * `repo`: the gitops repo of every cluster, shipped with provider none.
 */
function fleetDir(size, { shared = true, repo, port = 30880 } = {}) {
  const dir = join(work, `fleet-${size}-${shared ? 'shared' : 'unique'}${repo ? `-${basename(repo)}` : ''}-${port}`);
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < size; i++) {
    const name = `c${String(i).padStart(4, '0')}`;
    const namespaces = Array.from(
      { length: NAMESPACES_PER_CLUSTER },
      (_, n) => `    - ${shared ? '' : `${name}-`}app-${String(n).padStart(2, '0')}`,
    );
    writeFileSync(
      join(dir, `${name}.yaml`),
      [
        `name: ${name}`,
        'kubernetesVersion: "1.28"',
        `relay: { ip: 10.${Math.floor(i / 250)}.${i % 250}.10, port: ${port} }`,
        'tracked:',
        '  namespaces:',
        ...namespaces,
        'argocd: { namespace: argocd-apps, context: { argocdUrl: https://argocd.example } }',
        'veridor: { image: "registry.example/veridor:1.0.0" }',
        repo
          ? `gitops: { repo: "${repo}", provider: none }`
          : 'gitops: { repo: "https://github.com/example/gitops.git" }',
        '',
      ].join('\n'),
    );
  }
  return dir;
}

/**
 * One cluster that tracks `count` namespaces: a Veridor chart and a prune Role per namespace. synth and verify were
 * quadratic in them (cdk8s's chart.toJson() prepares the whole App: 10,000 namespaces took 708 s).
 */
const TRACKED_NAMESPACES = Number(process.env.BENCH_NAMESPACES ?? 10000);
function manyNamespacesDir(count) {
  const dir = join(work, `namespaces-${count}`);
  mkdirSync(dir, { recursive: true });
  const namespaces = Array.from({ length: count }, (_, i) => `    - ns-${String(i).padStart(5, '0')}`);
  writeFileSync(
    join(dir, 'big.yaml'),
    [
      'name: big',
      'kubernetesVersion: "1.28"',
      'relay: { ip: 10.0.0.10, port: 30880 }',
      'tracked:',
      '  namespaces:',
      ...namespaces,
      'argocd: { namespace: argocd-apps, context: { argocdUrl: https://argocd.example } }',
      'veridor: { image: "registry.example/veridor:1.0.0" }',
      'gitops: { repo: "https://github.com/example/gitops.git" }',
      '',
    ].join('\n'),
  );
  return dir;
}

/**
 * One cluster file of about 970 KB with 70,000 `argocd.context` keys: the yaml library's unique-keys check was
 * quadratic.
 */
const CONTEXT_KEYS = 70000;
function manyKeysDir() {
  const dir = join(work, 'many-keys');
  mkdirSync(dir, { recursive: true });
  const keys = Array.from({ length: CONTEXT_KEYS }, (_, i) => `    k${i.toString(36)}: v${i % 100}`);
  const file = readFileSync(join(ROOT, 'clusters', 'prod.yaml'), 'utf8').replace(
    /^ {2}context:\n/m,
    `  context:\n${keys.join('\n')}\n`,
  );
  writeFileSync(join(dir, 'prod.yaml'), file);
  return dir;
}

/**
 * One cluster file of about 850 KB with 60,000 quoted `argocd.context` keys (`k1ekf: "1ekf"`), indented by one space
 * to stay under the loader's 1 MiB: verify read the rendered context back with the yaml library's quadratic
 * unique-keys check (55 s of CPU).
 */
const QUOTED_CONTEXT_KEYS = 60000;
function quotedKeysDir() {
  const dir = join(work, 'quoted-keys');
  mkdirSync(dir, { recursive: true });
  const keys = Array.from({ length: QUOTED_CONTEXT_KEYS }, (_, i) => `  k${i.toString(36)}: "${i.toString(36)}"`);
  const argocd = [
    'argocd:',
    ' namespace: argocd-apps',
    ' context:',
    '  argocdUrl: https://argocd.example',
    ...keys,
  ].join('\n');
  const file = readFileSync(join(ROOT, 'clusters', 'prod.yaml'), 'utf8').replace(
    /^argocd:\n(?:[ #].*\n)*/m,
    `${argocd}\n`,
  );
  writeFileSync(join(dir, 'prod.yaml'), file);
  return dir;
}

/**
 * A bare repo whose main holds the fleet's render with relay port 30880, as after every change of an earlier
 * `pr --all` was merged.
 */
function mergedGitops(size, template) {
  const merged = join(work, `gitops-${size}-merged.git`);
  if (existsSync(merged)) return merged;
  const cache = join(work, `cache-${size}-merged`);
  cpSync(template, merged, { recursive: true });
  const clusters = fleetDir(size, { repo: merged });
  execFileSync(
    process.execPath,
    [cli, 'pr', '--all', '--clusters', clusters, '--provider', 'none', '--cache-dir', cache, '--source-dir', ROOT],
    { stdio: 'ignore', env: { ...process.env, ...GIT_IDENTITY } },
  );
  const branches = execFileSync('git', ['for-each-ref', '--format=%(refname:short)', 'refs/heads/glidepath'], {
    cwd: merged,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  const checkout = join(work, `merge-${size}`);
  execFileSync('git', ['clone', '--quiet', merged, checkout]);
  const git = (...args) => execFileSync('git', args, { cwd: checkout, env: { ...process.env, ...GIT_IDENTITY } });
  for (const branch of branches) git('merge', '--quiet', '--no-edit', `origin/${branch}`);
  git('push', '--quiet', 'origin', 'main', ...branches.map((branch) => `:${branch}`));
  rmSync(checkout, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
  return merged;
}

const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example',
};

/**
 * `pr --all --provider none` against a local bare repo: `first` times a fresh remote and cache each run (every
 * cluster proposed: one fetch, one commit write, one push), `rerun` the run after it (every cluster up to date),
 * `changed` a fresh cache and a remote whose main holds the fleet's render, with the relay port changed (2 of each
 * cluster's files change, every cluster proposed).
 */
async function measurePr(size, kind) {
  const remote = join(work, `gitops-${size}.git`);
  const cache = join(work, `cache-${size}`);
  const template = join(work, 'gitops-template.git');
  if (!existsSync(template)) {
    execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', template]);
    const now = `${Math.floor(Date.now() / 1000)} +0000`;
    execFileSync('git', ['fast-import', '--quiet'], {
      cwd: template,
      input:
        `commit refs/heads/main\ncommitter bench <bench@example> ${now}\ndata 4\ninit\nM 100644 inline ` +
        `README.md\ndata 9\n# gitops\n\n`,
    });
  }
  const base = kind === 'changed' ? mergedGitops(size, template) : template;
  const clusters =
    kind === 'changed' ? fleetDir(size, { repo: remote, port: 30881 }) : fleetDir(size, { repo: remote });
  const fresh = () => {
    rmSync(remote, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
    cpSync(base, remote, { recursive: true });
  };
  const args = [
    cli,
    'pr',
    '--all',
    '--clusters',
    clusters,
    '--provider',
    'none',
    '--cache-dir',
    cache,
    '--source-dir',
    ROOT,
  ];
  const env = GIT_IDENTITY;
  const runs = [];
  for (let i = 0; i <= RUNS; i++) {
    if (kind !== 'rerun' || i === 0) fresh();
    if (kind === 'rerun' && i === 0) await timeProcess(process.execPath, args, env);
    const run = await timeProcess(process.execPath, args, env);
    if (i > 0) runs.push(run); // the first is the warm-up
  }
  const times = runs.map((r) => r.seconds).sort((a, b) => a - b);
  const label = {
    first: `glidepath pr --all --provider none, fleet of ${size}, every cluster proposed`,
    rerun: `glidepath pr --all --provider none, fleet of ${size}, rerun: every cluster up to date`,
    changed: `glidepath pr --all --provider none, fleet of ${size}, relay port changed on a merged render`,
  }[kind];
  const cpu = runs.map((r) => r.cpu).sort((a, b) => a - b);
  const row = {
    label,
    clusters: size,
    median: times[Math.floor(times.length / 2)],
    min: times[0],
    max: times.at(-1),
    cpu: cpu[Math.floor(cpu.length / 2)],
    peakMb: Math.max(...runs.map((r) => r.peak)) / 2 ** 20,
  };
  console.error(
    `${label}: median ${row.median.toFixed(3)} s, ${row.cpu.toFixed(2)} CPU s, peak ${row.peakMb.toFixed(0)} MB`,
  );
  return row;
}

await bundle();
const out = (name) => join(work, `out-${name}`);
const cli = join(ROOT, 'scripts', 'cli.mjs');
const cdk8s = join(ROOT, 'node_modules', '.bin', 'cdk8s');
const shipped = (await import('node:fs')).readdirSync(join(ROOT, 'clusters')).filter((f) => /\.ya?ml$/.test(f)).length;

const prRows = [];
for (const size of SKIP_PR ? [] : PR_FLEETS)
  for (const kind of ['first', 'rerun', 'changed']) prRows.push(await measurePr(size, kind));

const rows = [];
if (!ONLY_PR)
  rows.push(
    await measure('glidepath synth, shipped clusters', process.execPath, [cli, 'synth', '--out', out('own')], shipped),
  );
if (!ONLY_PR)
  rows.push(
    await measure(
      'cdk8s synth (cdk8s.yaml app), shipped clusters',
      cdk8s,
      ['synth', '--check-upgrade=false', '--output', out('cdk8s')],
      shipped,
    ),
  );
// Each run renders the fleet with the other relay port, so every cluster changes and is written anew (synth leaves a
// cluster folder that already holds its render as it is; the row after the fleets measures that).
for (const size of ONLY_PR ? [] : FLEETS) {
  const fleets = [fleetDir(size), fleetDir(size, { port: 30881 })];
  rows.push(
    await measure(
      `glidepath synth, fleet of ${size}, every cluster changed`,
      process.execPath,
      (run) => [cli, 'synth', '--clusters', fleets[run % 2], '--out', out(size)],
      size,
    ),
  );
}
const largest = Math.max(...FLEETS);
if (!ONLY_PR && FLEETS.length > 0)
  rows.push(
    await measure(
      `glidepath synth, fleet of ${largest}, nothing changed`,
      process.execPath,
      [cli, 'synth', '--clusters', fleetDir(largest), '--out', out(largest)],
      largest,
    ),
  );
// The worst case for the render's YAML cache: no chart repeats across clusters.
const uniqueFleets = (ONLY_PR ? [] : [30880, 30881]).map((port) => fleetDir(100, { shared: false, port }));
if (!ONLY_PR)
  rows.push(
    await measure(
      'glidepath synth, fleet of 100, no namespace shared, every cluster changed',
      process.execPath,
      (run) => [cli, 'synth', '--clusters', uniqueFleets[run % 2], '--out', out('unique')],
      100,
    ),
  );
const namespacesSynthLabel = `glidepath synth, one cluster of ${TRACKED_NAMESPACES} tracked namespaces`;
const namespacesVerifyLabel = `glidepath verify, one cluster of ${TRACKED_NAMESPACES} tracked namespaces`;
if (!ONLY_PR && TRACKED_NAMESPACES > 0) {
  const dir = manyNamespacesDir(TRACKED_NAMESPACES);
  rows.push(
    await measure(namespacesSynthLabel, process.execPath, [cli, 'synth', '--clusters', dir, '--out', out('ns')], 1),
    await measure(namespacesVerifyLabel, process.execPath, [cli, 'verify', '--clusters', dir], 1),
  );
}
const manyKeysLabel = `glidepath synth, one 970 KB cluster file with ${CONTEXT_KEYS} argocd.context keys`;
if (!ONLY_PR)
  rows.push(
    await measure(
      manyKeysLabel,
      process.execPath,
      [cli, 'synth', '--clusters', manyKeysDir(), '--out', out('many-keys')],
      1,
    ),
  );
const quotedKeysLabel =
  `glidepath verify, one 850 KB cluster file with ` + `${QUOTED_CONTEXT_KEYS} quoted argocd.context keys`;
if (!ONLY_PR)
  rows.push(await measure(quotedKeysLabel, process.execPath, [cli, 'verify', '--clusters', quotedKeysDir()], 1));
// npm test as a contributor runs it: one run to warm up (vitest's transform cache), then one.
let tests;
if (!ONLY_PR && TESTS) {
  const npmTest = [join(ROOT, 'scripts', 'test.mjs')];
  await timeProcess(process.execPath, npmTest, { CI: 'true' });
  tests = await timeProcess(process.execPath, npmTest, { CI: 'true' });
  console.error(`npm test: ${tests.seconds.toFixed(1)} s wall, ${tests.cpu.toFixed(1)} s CPU`);
}
rmSync(work, { recursive: true, force: true });

const fmt = (s) => s.toFixed(3);
const perCluster = (r) => (r.median / r.clusters) * 1000;
const cpuPerCluster = (r) => r.cpu / r.clusters;
const tableRow = (r) =>
  `| ${r.label} | ${r.clusters} | ${fmt(r.median)} | ${fmt(r.min)} | ${fmt(r.max)} | ${perCluster(r).toFixed(1)} | ` +
  `${r.cpu.toFixed(2)} | ${((r.cpu / r.clusters) * 1000).toFixed(1)} | ${r.peakMb.toFixed(0)} |`;
const pr100 = prRows.find((r) => r.clusters === 100 && r.label.includes('proposed'));
const firstRuns = prRows.filter((r) => r.label.includes('proposed')).sort((a, b) => a.clusters - b.clusters);
const prSection = [
  '<!-- pr-bench: rewritten by npm run bench and BENCH_ONLY=pr npm run bench -->',
  '## Shipping a fleet: `npm run pr -- --all`',
  '',
  `On ${new Date().toISOString().slice(0, 10)}: every cluster into one local bare repo with \`--provider ` +
    `none\` (no API), ${RUNS} runs after a warm-up;`,
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')} at the end (1 / 5 / 15 min; other work on the machine slows every row).`,
  'A first run starts from a fresh remote and cache each time, so every cluster is rendered, committed and pushed; a',
  'rerun finds every branch holding its render and pushes nothing. A changed run starts from a remote whose main ' +
    "holds the render, with a new relay port: 2 of each cluster's files change, and each is proposed.",
  'CPU is user + system time of the whole process tree (the CLI, its render workers and every git process): on a ' +
    'busy machine it tells the cost better than wall time.',
  '',
  '| what | clusters | median s | min s | max s | ms per cluster | CPU s (median) | CPU ms per cluster | peak MB |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...prRows.map(
    (r) =>
      `| ${r.label} | ${r.clusters} | ${fmt(r.median)} | ${fmt(r.min)} | ${fmt(r.max)} | ` +
      `${perCluster(r).toFixed(1)} | ${r.cpu.toFixed(2)} | ${((r.cpu / r.clusters) * 1000).toFixed(1)} | ` +
      `${r.peakMb.toFixed(0)} |`,
  ),
  '',
  ...(pr100
    ? [`- [${pr100.median < 30 ? 'x' : ' '}] 100 clusters proposed in under 30 s (${fmt(pr100.median)} s)`]
    : []),
  // CPU, not wall: on a shared machine the wall time of one row can double while the work stays the same.
  `- [${firstRuns.every((r, i) => i === 0 || cpuPerCluster(r) < cpuPerCluster(firstRuns[i - 1])) ? 'x' : ' '}] ` +
    `CPU per cluster falls as the fleet grows ` +
    `(${firstRuns.map((r) => `${r.clusters}: ${(cpuPerCluster(r) * 1000).toFixed(0)} ms`).join(', ')}; ` +
    `wall: ${firstRuns.map((r) => `${perCluster(r).toFixed(0)} ms`).join(', ')})`,
  '<!-- /pr-bench -->',
  '',
].join('\n');
const resultsFile = join(ROOT, 'bench', 'results.md');
const keptPrSection = () =>
  /<!-- pr-bench[\s\S]*<!-- \/pr-bench -->\n?/.exec(
    existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '',
  )?.[0];
if (ONLY_PR) {
  const old = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : '# Benchmark results\n\n';
  const kept = old.replace(/<!-- pr-bench[\s\S]*<!-- \/pr-bench -->\n?/, '').replace(/\n*$/, '\n\n');
  await writeResults(resultsFile, kept + prSection);
  console.log(prSection);
  process.exit(0);
}

const [own, viaCdk8s] = rows;
const fleets = rows.filter(
  (r) => r.label.endsWith(', every cluster changed') && !r.label.includes('no namespace shared'),
);
const unchanged = rows.find((r) => r.label.endsWith(', nothing changed'));
const manyKeys = rows.find((r) => r.label === manyKeysLabel);
const quotedKeys = rows.find((r) => r.label === quotedKeysLabel);
const namespacesSynth = rows.find((r) => r.label === namespacesSynthLabel);
const namespacesVerify = rows.find((r) => r.label === namespacesVerifyLabel);
const unique100 = rows.find((r) => r.label.includes('no namespace shared'));
const fleet100 = fleets.find((r) => r.clusters === 100);
const fleet1000 = fleets.find((r) => r.clusters === 1000);
/** Wall ms each cluster adds from one fleet row to the next: flat when the render scales linearly. */
const sortedFleets = [...fleets].sort((a, b) => a.clusters - b.clusters);
const added = sortedFleets
  .slice(1)
  .map((r, i) => ({ from: sortedFleets[i], to: r }))
  .map(({ from, to }) => ({
    text:
      `${from.clusters} to ${to.clusters}: ` +
      `${(((to.median - from.median) / (to.clusters - from.clusters)) * 1000).toFixed(1)} ms`,
    ms: ((to.median - from.median) / (to.clusters - from.clusters)) * 1000,
  }));
const checks = [
  [`shipped clusters at most 0.5 s wall`, own.median <= 0.5],
  [
    `at least 5x faster than cdk8s synth (${(viaCdk8s.median / own.median).toFixed(1)}x)`,
    viaCdk8s.median / own.median >= 5,
  ],
  ...(fleet100 ? [[`100 clusters at most 3 s and under 300 MB`, fleet100.median <= 3 && fleet100.peakMb < 300]] : []),
  ...(fleet1000
    ? [
        [
          `1,000 clusters at most 12 s and under 600 MB (${fmt(fleet1000.median)} s, ` +
            `${fleet1000.peakMb.toFixed(0)} MB)`,
          fleet1000.median <= 12 && fleet1000.peakMb < 600,
        ],
      ]
    : []),
  ...(unchanged
    ? [
        [
          `${unchanged.clusters} clusters, nothing changed, faster than every cluster changed (` +
            `${fmt(unchanged.median)} s)`,
          unchanged.median < (fleets.find((r) => r.clusters === unchanged.clusters)?.median ?? 0),
        ],
      ]
    : []),
  // Flat: no step costs more per added cluster than the one before it did, with a fifth for the machine's drift.
  ...(added.length > 1
    ? [
        [
          `the cost of each added cluster does not grow with the fleet (${added.map((a) => a.text).join(', ')})`,
          added.every((a, i) => i === 0 || a.ms <= added[i - 1].ms * 1.2),
        ],
      ]
    : []),
  ...(tests
    ? [
        [
          `npm test at most 8 s wall and 12 s CPU (${tests.seconds.toFixed(1)} s, ${tests.cpu.toFixed(1)} s CPU)`,
          tests.seconds <= 8 && tests.cpu <= 12,
        ],
      ]
    : []),
  ...(unique100
    ? [
        [
          `100 clusters sharing no namespace at most 3 s and under 300 MB`,
          unique100.median <= 3 && unique100.peakMb < 300,
        ],
      ]
    : []),
  // Before the loader checked unique keys in one pass, loading that file alone took 32 to 36 s.
  ...(manyKeys
    ? [
        [
          `a cluster file with ${CONTEXT_KEYS} context keys loaded and rendered in at most 3 s ` +
            `(${fmt(manyKeys.median)} s)`,
          manyKeys.median <= 3,
        ],
      ]
    : []),
  // Before each chart was rendered in an App of its own, 10,000 namespaces took 708 s (synth) and 477 s (verify).
  ...[namespacesSynth, namespacesVerify]
    .filter(Boolean)
    .map((r) => [
      `${r.label} at most 10 s and 600 MB (${fmt(r.median)} s, ${r.cpu.toFixed(1)} s CPU, ${r.peakMb.toFixed(0)} MB)`,
      r.median <= 10 && r.peakMb <= 600,
    ]),
  // Before verify read the rendered context back in one pass, this took 55 s of CPU.
  ...(quotedKeys
    ? [
        [
          `verify of a cluster file with ${QUOTED_CONTEXT_KEYS} quoted context keys in at most 5 s ` +
            `(${fmt(quotedKeys.median)} s)`,
          quotedKeys.median <= 5,
        ],
      ]
    : []),
];
const cpu = cpus();
const md = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` (bench/bench.mjs) on ${new Date().toISOString().slice(0, 10)}; load average ` +
    `${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} at the end (1 / 5 / 15 min; other work on the machine slows every row).`,
  `Machine: ${cpu.length} cores (${cpu[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB ` +
    `memory; Node ${process.version}.`,
  `Each row: ${RUNS} runs of the whole process after one warm-up; fleets have ${NAMESPACES_PER_CLUSTER} ` +
    `tracked namespaces per cluster,`,
  'the same ones in every cluster (as a fleet of the same apps has) except in the row that says otherwise.',
  'Peak memory is the largest VmHWM of the process and its children. `cdk8s synth` runs with ' +
    '--check-upgrade=false so that',
  'no registry lookup is timed; its app command is the one in cdk8s.yaml (tsx on src/cli.ts). CPU is user + system',
  'time of the whole process tree, render workers included (median of the runs).',
  '',
  '| what | clusters | median s | min s | max s | ms per cluster | CPU s | CPU ms per cluster | peak MB |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(tableRow),
  '',
  ...(tests
    ? [
        `\`npm test\` (CI=true, after one run to warm up): ${tests.seconds.toFixed(1)} s wall, ` +
          `${tests.cpu.toFixed(1)} s CPU ` +
          '(the same figure it prints: the run, its workers and every child process), ' +
          `load average ${loadavg()[0].toFixed(1)} when it ended.`,
        '',
      ]
    : []),
  'Targets:',
  '',
  ...checks.map(([text, ok]) => `- [${ok ? 'x' : ' '}] ${text}`),
  '',
  (SKIP_PR ? keptPrSection() : undefined) ?? prSection,
];
await writeResults(join(ROOT, 'bench', 'results.md'), md.join('\n'));
console.log(md.join('\n'));
