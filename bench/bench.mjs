// npm run bench: times synth as whole processes (median of RUNS after a warm-up, min, max, peak memory),
// side by side with `cdk8s synth`, and for generated fleets; writes bench/results.md.
//   BENCH_RUNS=7 npm run bench          more runs
//   BENCH_FLEETS=10,100 npm run bench   other fleet sizes
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { bundle, ROOT } from '../scripts/bundle.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const FLEETS = (process.env.BENCH_FLEETS ?? '10,100,500').split(',').map(Number);
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

/** Runs a command to completion; returns wall seconds and peak memory. Fails loudly on a non-zero exit. */
function timeProcess(command, args) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let peak = 0;
    child.stderr.on('data', (d) => (stderr += d));
    const sampler = setInterval(() => (peak = Math.max(peak, peakOfTree(child.pid))), SAMPLE_MS);
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      clearInterval(sampler);
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} exited ${code}\n${stderr}`));
      else resolve({ seconds, peak });
    });
  });
}

async function measure(label, command, args, clusters) {
  await timeProcess(command, args); // warm-up: file cache, bundle freshness
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timeProcess(command, args));
  const times = runs.map((r) => r.seconds).sort((a, b) => a - b);
  const row = {
    label,
    clusters,
    median: times[Math.floor(times.length / 2)],
    min: times[0],
    max: times.at(-1),
    peakMb: Math.max(...runs.map((r) => r.peak)) / 2 ** 20,
  };
  console.error(`${label}: median ${row.median.toFixed(3)} s, peak ${row.peakMb.toFixed(0)} MB`);
  return row;
}

/** `shared`: every cluster tracks app-00..app-19, as a fleet of the same apps does; otherwise no two clusters share one. */
function fleetDir(size, { shared = true } = {}) {
  const dir = join(work, `fleet-${size}-${shared ? 'shared' : 'unique'}`);
  mkdirSync(dir);
  for (let i = 0; i < size; i++) {
    const name = `c${String(i).padStart(4, '0')}`;
    const namespaces = Array.from({ length: NAMESPACES_PER_CLUSTER }, (_, n) => `    - ${shared ? '' : `${name}-`}app-${String(n).padStart(2, '0')}`);
    writeFileSync(
      join(dir, `${name}.yaml`),
      [
        `name: ${name}`,
        'kubernetesVersion: "1.28"',
        `relay: { ip: 10.${Math.floor(i / 250)}.${i % 250}.10, port: 30880 }`,
        'tracked:',
        '  namespaces:',
        ...namespaces,
        'argocd: { namespace: argocd-apps, context: { argocdUrl: https://argocd.example } }',
        'prune: { image: "registry.k8s.io/kubectl:v1.28.15" }',
        'veridor: { image: "registry.example/veridor:1.0.0" }',
        'gitops: { repo: "https://github.com/example/gitops.git" }',
        '',
      ].join('\n'),
    );
  }
  return dir;
}

await bundle();
const out = (name) => join(work, `out-${name}`);
const cli = join(ROOT, 'scripts', 'cli.mjs');
const cdk8s = join(ROOT, 'node_modules', '.bin', 'cdk8s');
const shipped = (await import('node:fs')).readdirSync(join(ROOT, 'clusters')).filter((f) => /\.ya?ml$/.test(f)).length;

const rows = [];
rows.push(await measure('glidepath synth, shipped clusters', process.execPath, [cli, 'synth', '--out', out('own')], shipped));
rows.push(await measure('cdk8s synth (cdk8s.yaml app), shipped clusters', cdk8s, ['synth', '--check-upgrade=false', '--output', out('cdk8s')], shipped));
for (const size of FLEETS) {
  rows.push(await measure(`glidepath synth, fleet of ${size}`, process.execPath, [cli, 'synth', '--clusters', fleetDir(size), '--out', out(size)], size));
}
// The worst case for the render's YAML cache: no chart repeats across clusters.
rows.push(await measure('glidepath synth, fleet of 100, no namespace shared', process.execPath, [cli, 'synth', '--clusters', fleetDir(100, { shared: false }), '--out', out('unique')], 100));
rmSync(work, { recursive: true, force: true });

const [own, viaCdk8s] = rows;
const fleets = rows.slice(2).filter((r) => !r.label.includes('no namespace shared'));
const unique100 = rows.find((r) => r.label.includes('no namespace shared'));
const perCluster = (r) => (r.median / r.clusters) * 1000;
const fleet100 = fleets.find((r) => r.clusters === 100);
const checks = [
  [`shipped clusters at most 0.5 s wall`, own.median <= 0.5],
  [`at least 5x faster than cdk8s synth (${(viaCdk8s.median / own.median).toFixed(1)}x)`, viaCdk8s.median / own.median >= 5],
  ...(fleet100 ? [[`100 clusters at most 3 s and under 300 MB`, fleet100.median <= 3 && fleet100.peakMb < 300]] : []),
  ...(unique100 ? [[`100 clusters sharing no namespace at most 3 s and under 300 MB`, unique100.median <= 3 && unique100.peakMb < 300]] : []),
];
const fmt = (s) => s.toFixed(3);
const cpu = cpus();
const md = [
  '# Benchmark results',
  '',
  `Written by \`npm run bench\` (bench/bench.mjs) on ${new Date().toISOString().slice(0, 10)}.`,
  `Machine: ${cpu.length} cores (${cpu[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB memory; Node ${process.version}.`,
  `Each row: ${RUNS} runs of the whole process after one warm-up; fleets have ${NAMESPACES_PER_CLUSTER} tracked namespaces per cluster,`,
  'the same ones in every cluster (as a fleet of the same apps has) except in the row that says otherwise.',
  'Peak memory is the largest VmHWM of the process and its children. `cdk8s synth` runs with --check-upgrade=false so that',
  'no registry lookup is timed; its app command is the one in cdk8s.yaml (tsx on src/cli.ts).',
  '',
  '| what | clusters | median s | min s | max s | ms per cluster | peak MB |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map((r) => `| ${r.label} | ${r.clusters} | ${fmt(r.median)} | ${fmt(r.min)} | ${fmt(r.max)} | ${perCluster(r).toFixed(1)} | ${r.peakMb.toFixed(0)} |`),
  '',
  'Targets:',
  '',
  ...checks.map(([text, ok]) => `- [${ok ? 'x' : ' '}] ${text}`),
  '',
];
writeFileSync(join(ROOT, 'bench', 'results.md'), md.join('\n'));
console.log(md.join('\n'));
