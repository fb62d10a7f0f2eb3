/**
 * `glidepath init` on the real API server: from the live e2e cluster it yields, on every field it can read, the
 * values of e2e/clusters/e2e.yaml; what it cannot read there (the controllers run as processes beside the control
 * plane, so no Deployment says their release) is a commented line, not a wrong value. Then `facts --rollout
 * NAMESPACE/NAME --context` reads one of its Rollouts live.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { main } from '../../src/cli';
import { launch } from '../../src/launch';
import type { KubectlRunner } from '../../src/live/kubectl';
import { CLUSTER_FILE, REPO_DIR } from '../lib/install';
import { rolloutPath, type Json } from '../lib/kube';
import type { Scenario } from '../lib/report';
import { APP_IMAGE, createRollout, rollout, TRACKED_LABEL } from '../lib/rollouts';
import type { E2eContext } from './context';

/** The context of the run's admin kubeconfig (e2e/lib/kube.ts kubeconfigYaml). */
const CONTEXT = 'e2e';
const PROBE = 'init-probe';

function kubectlRunner(ctx: E2eContext): KubectlRunner {
  return (args) =>
    launch({
      command: ctx.bin.kubectl!,
      args,
      cwd: ctx.tmp,
      env: { ...process.env, KUBECONFIG: ctx.plane.adminKubeconfig, HOME: ctx.tmp },
      input: '',
      timeoutMs: 30_000,
      maxOutputBytes: 64 * 1024 * 1024,
    });
}

async function cli(ctx: E2eContext, args: readonly string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    kubectl: kubectlRunner(ctx),
    env: {},
    print: (line) => out.push(line),
    printError: (line) => err.push(line),
  });
  return { code, out, err };
}

const at = (object: Json, path: string): unknown =>
  path
    .split('.')
    .reduce((value: Json, key) => (value === undefined || value === null ? undefined : value[key]), object);

/** extraData for comparison: the relay's port as e2e.yaml writes it, subscriptions parsed (init rewrites them). */
function readable(extraData: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(extraData)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, text]) => {
        const value = text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:30880');
        return [key, key === 'subscriptions' ? parse(value) : value];
      }),
  );
}

export async function initFromCluster(ctx: E2eContext, s: Scenario): Promise<void> {
  const probes: string[] = [];
  try {
    await initAndCompare(ctx, s, probes);
  } finally {
    for (const namespace of probes) await ctx.api.call('DELETE', rolloutPath(namespace, PROBE));
  }
}

async function initAndCompare(ctx: E2eContext, s: Scenario, probes: string[]): Promise<void> {
  const expected = parse(readFileSync(CLUSTER_FILE, 'utf8')) as Json;
  // The cluster as a user's: a labelled Rollout in each namespace the file tracks (the other scenarios make theirs
  // and may have removed them; this one runs after them).
  const labelled = await ctx.api.get(`/apis/argoproj.io/v1alpha1/rollouts?labelSelector=${TRACKED_LABEL}%3Dtrue`);
  const withOne = new Set((labelled.items as Json[]).map((r) => r.metadata.namespace as string));
  for (const namespace of (expected.tracked.namespaces as string[]).filter((ns) => !withOne.has(ns))) {
    await createRollout(ctx.api, rollout({ namespace, name: PROBE, releaseId: 'rel-init', image: `${APP_IMAGE}:1.0` }));
    probes.push(namespace);
  }
  s.note('probe Rollouts created', probes);
  const elsewhere = [...withOne].filter((ns) => !(expected.tracked.namespaces as string[]).includes(ns)).sort();
  s.note('labelled Rollouts outside e2e.yaml tracked.namespaces (left by other scenarios)', elsewhere);

  const dir = mkdtempSync(join(ctx.tmp, 'init-'));
  // The schema of this clone, from the folder init writes into.
  const schema = relative(join(dir, 'clusters'), join(REPO_DIR, 'schema', 'cluster.schema.json'));
  const started = Date.now();
  const run = await cli(ctx, ['init', '--cluster', 'e2e', '--clusters', join(dir, 'clusters'), '--context', CONTEXT]);
  s.note('init seconds', Math.round((Date.now() - started) / 100) / 10);
  s.note('init output', [...run.out, ...run.err]);
  const text = readFileSync(join(dir, 'clusters', 'e2e.yaml'), 'utf8');
  s.note('the file init wrote', text);
  s.check('init writes the file and lists what it could not read (exit 3)', run.code === 3, run.err);
  s.check(
    'the file starts with the schema modelines',
    text.startsWith(`# yaml-language-server: $schema=${schema}\n# $schema: ${schema}\n`),
    text.split('\n').slice(0, 2),
  );
  const written = parse(text) as Json;
  const defaults: Record<string, unknown> = { 'rollouts.delivery': 'configmap', 'argocd.delivery': 'configmap' };
  for (const field of [
    'kubernetesVersion',
    'rollouts.namespace',
    'argocd.namespace',
    'argocd.context',
    'rollouts.delivery',
    'argocd.delivery',
  ]) {
    const want = at(expected, field) ?? defaults[field];
    const got = at(written, field);
    s.check(`init reads ${field} as e2e.yaml says`, JSON.stringify(got) === JSON.stringify(want), { got, want });
  }
  // The team's keys, copied from the live ConfigMaps: the run put its catcher's port where e2e.yaml says 30880.
  for (const field of ['rollouts.extraData', 'argocd.extraData']) {
    const [got, want] = [at(written, field), at(expected, field)].map((data) => readable((data ?? {}) as Json));
    s.check(`init copies ${field} as e2e.yaml says`, JSON.stringify(got) === JSON.stringify(want), { got, want });
  }
  const tracked = [...(at(written, 'tracked.namespaces') as string[])].sort();
  s.check(
    'init reads tracked.namespaces: those of e2e.yaml (and any a scenario before it labelled elsewhere)',
    JSON.stringify(tracked) === JSON.stringify([...expected.tracked.namespaces, ...elsewhere].sort()),
    { got: tracked, want: expected.tracked.namespaces, elsewhere },
  );
  // No Deployment runs the controllers here: their releases stay commented, never guessed.
  for (const [field, key] of [
    ['rollouts.controllerVersion', 'controllerVersion'],
    ['argocd.version', 'version'],
  ] as const) {
    const got = at(written, field);
    s.check(
      `${field}: as e2e.yaml, or a commented line when no Deployment says it`,
      got === at(expected, field) ||
        (got === undefined && new RegExp(`\n  # ${key}: "\\d+\\.\\d+\\.\\d+"\n`).test(text)),
      { got, want: at(expected, field) },
    );
  }
  const listed = run.out.find((line) => line.startsWith('no read can give ')) ?? '';
  s.check(
    'what no cluster says is listed: relay.ip, relay.port, veridor.image, gitops.repo',
    ['relay.ip', 'relay.port', 'veridor.image', 'gitops.repo'].every(
      (field) => listed.includes(`${field}, `) || listed.includes(`${field}:`),
    ),
    listed,
  );

  // The values init lists as unread, set as a user sets them: then the file loads and passes verify.
  const filled = text
    .replace(/^ {2}# ip: .*$/m, '  ip: 127.0.0.1')
    .replace(/^ {2}# port: .*$/m, '  port: 30880')
    .replace(/^ {2}# image: .*$/m, `  image: ${expected.veridor.image}`)
    .replace(/^ {2}# repo: .*$/m, `  repo: ${expected.gitops.repo}`)
    .replace(/^ {2}# controllerVersion: .*$/m, `  controllerVersion: "${expected.rollouts.controllerVersion}"`)
    .replace(/^ {2}# version: .*$/m, `  version: "${expected.argocd.version}"`);
  writeFileSync(join(dir, 'clusters', 'e2e.yaml'), filled);
  const verify = await cli(ctx, ['verify', '--clusters', join(dir, 'clusters')]);
  s.note('verify of the file init wrote, the values it listed set', [...verify.out.slice(0, 3), ...verify.err]);
  s.check(
    'with the values it listed set (relay, releases, Veridor image, gitops repo), the file passes verify',
    verify.code === 0,
    verify.err,
  );

  // facts reads a labelled Rollout live.
  const first = (labelled.items as Json[])[0];
  const target =
    probes.length > 0 ? `${probes[0]}/${PROBE}` : first && `${first.metadata.namespace}/${first.metadata.name}`;
  if (target !== undefined) {
    const facts = await cli(ctx, [
      'facts',
      '--cluster',
      CLUSTER_FILE,
      '--rollout',
      target,
      '--context',
      CONTEXT,
      '--json',
    ]);
    s.note('facts --rollout (live) output', [...facts.out, ...facts.err].slice(0, 20));
    s.check(`facts --rollout ${target} --context ${CONTEXT} reads it live (exit 0)`, facts.code === 0, facts.err);
  }
}
