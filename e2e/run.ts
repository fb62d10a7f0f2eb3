/**
 * `npm run e2e`: builds the real components, starts a local control plane on 127.0.0.1 with the real
 * Argo Rollouts and Argo CD notifications controllers, applies the rendered e2e cluster, replays the
 * source documents' scenarios and writes e2e/report.json. Everything it started is stopped on every exit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAll, E2E_DIR, printedVersion, type BuildResult, type BuiltComponent } from './lib/build';
import { Catcher } from './lib/catcher';
import { addNode, binaries, startControlPlane, type Binaries, type ControlPlane } from './lib/control-plane';
import { ARGOCD_BINARIES, DEFAULT_PROJECT, startArgoCd, type ArgoCd } from './lib/argocd';
import { kubeconfigIn, startControllers } from './lib/controllers';
import { E2eError } from './lib/errors';
import { startGitea, type Gitea } from './lib/gitea';
import {
  createNamespaces,
  createSecrets,
  installCrds,
  kubectlFor,
  makeRunSecrets,
  readCluster,
  render,
  reportedSecrets,
  serverSideApply,
  type E2eCluster,
  type Kubectl,
} from './lib/install';
import { ensureRedis, REDIS_PACKAGE, startRedis } from './lib/redis';
import { killAllNow, logTail, stopAll, type Started } from './lib/processes';
import { reportedRequest, runScenario, writeReport, type ScenarioResult } from './lib/report';
import type { E2eContext } from './scenarios/context';
import { delivery } from './scenarios/delivery';
import { createGitopsRepo, gitopsLoop } from './scenarios/gitops-loop';
import { SCENARIOS, type ScenarioDefinition } from './scenarios/index';

const REPORT_FILE = join(E2E_DIR, 'report.json');
const GITOPS_LOOP = 'gitops loop';
const WEBHOOK_DELIVERY = 'webhook delivery';

/**
 * GLIDEPATH_E2E_ONLY: a comma-separated list of scenario names to run (for working on one scenario); the
 * rendered cluster is still applied and checked. Unset, every scenario runs.
 */
function selectedScenarios(value: string | undefined): Set<string> | undefined {
  if (!value?.trim()) return undefined;
  const names = new Set(
    value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );
  const known = new Set([...SCENARIOS.map((scenario) => scenario.name), GITOPS_LOOP, WEBHOOK_DELIVERY]);
  const unknown = [...names].filter((name) => !known.has(name));
  if (unknown.length)
    throw new E2eError(
      `GLIDEPATH_E2E_ONLY names no scenario ${unknown.map((n) => `"${n}"`).join(', ')}; ` +
        `the scenarios: ${[...known].join(', ')}`,
    );
  return names;
}

interface ReportedVersion {
  readonly pinned: string;
  readonly printed: string;
  readonly built: boolean;
  readonly buildSeconds: number;
  readonly cachedBuild?: BuiltComponent['recorded'];
}
const log = (line: string): void => console.log(`e2e: ${line}`);

let tmp: string | undefined;
let catcher: Catcher | undefined;
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopAll();
    await catcher?.stop();
    if (tmp && process.env.GLIDEPATH_E2E_KEEP) log(`kept ${tmp} (GLIDEPATH_E2E_KEEP)`);
    else if (tmp) rmSync(tmp, { recursive: true, force: true });
    tmp = undefined;
  })();
  return cleaning;
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping everything`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.on('exit', () => {
  killAllNow();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** What the cluster looked like when a scenario failed, for the report. */
async function clusterState(kubectl: Kubectl): Promise<Record<string, string>> {
  const state: Record<string, string> = {};
  for (const what of ['nodes', 'pods,replicasets,jobs,analysisruns', 'events']) {
    const result = await kubectl(['get', what, '-A', '-o', 'wide']);
    state[what] = `${result.stdout}${result.stderr}`.trim().split('\n').slice(0, 150).join('\n');
  }
  return state;
}

/** Gitea with the gitops repo, or why there is none (it did not build, or did not start). */
async function startForge(
  built: readonly BuiltComponent[],
  notBuilt: BuildResult['failed'],
  dir: string,
): Promise<{ gitea?: Gitea; giteaError?: string }> {
  const component = built.find((b) => b.component.name === 'gitea');
  if (component === undefined)
    return { giteaError: notBuilt.find((f) => f.component.name === 'gitea')?.error ?? 'gitea was not built' };
  try {
    const gitea = await startGitea(component.bin.gitea!, join(component.cacheDir, 'share'), dir);
    await createGitopsRepo(gitea);
    return { gitea };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    log(`Gitea did not start; the scenarios that need it fail:\n${error.message}`);
    return { giteaError: error.message };
  }
}

/** Redis, the repo server and the application controller, or why there are none. */
async function startArgo(
  bin: Binaries,
  plane: ControlPlane,
  cluster: E2eCluster,
  dir: string,
  watch: readonly Started[],
): Promise<{ argocd?: ArgoCd; argocdError?: string; redisVersion?: string }> {
  const missing = ARGOCD_BINARIES.filter((name) => bin[name] === undefined);
  if (missing.length) return { argocdError: `not built: ${missing.join(', ')} (see buildFailures in the report)` };
  try {
    const redisVersion = ensureRedis(log);
    const redis = await startRedis(dir, redisVersion);
    const argocd = await startArgoCd(
      bin,
      kubeconfigIn(plane, dir, 'argocd-controller', cluster.argocdNamespace),
      dir,
      redis,
      watch,
    );
    return { argocd, redisVersion };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    log(`Argo CD did not start; the scenarios that need it fail:\n${error.message}`);
    return { argocdError: error.message };
  }
}

async function main(): Promise<number> {
  const runStarted = Date.now();
  const { built, failed: notBuilt, seconds: buildSeconds } = await buildAll(log);
  const versions: Record<string, ReportedVersion> = Object.fromEntries(
    built.map((b) => [
      b.component.name,
      {
        pinned: b.component.version,
        printed: printedVersion(b),
        built: b.built,
        buildSeconds: b.seconds,
        // A component taken from the cache: the build that made it, as its cache entry recorded it.
        ...(b.recorded ? { cachedBuild: b.recorded } : {}),
      },
    ]),
  );
  for (const [name, v] of Object.entries(versions)) log(`${name}: ${v.printed.split('\n')[0]}`);
  const buildFailures = Object.fromEntries(
    notBuilt.map((f) => [f.component.name, { pinned: f.component.version, error: f.error }]),
  );

  tmp = mkdtempSync(join(tmpdir(), 'glidepath-e2e-'));
  const bin = binaries(built);
  const cluster = readCluster();
  catcher = new Catcher();
  await catcher.start();
  const runSecrets = makeRunSecrets();

  const plane = await startControlPlane(bin, tmp, log);
  const kubectl = kubectlFor(bin.kubectl!, plane.adminKubeconfig, join(tmp, 'home'));
  await addNode(plane.admin, plane.processes);
  const crds = await installCrds(kubectl, plane);
  const namespaces = await createNamespaces(kubectl, cluster);
  const secrets = await createSecrets(kubectl, cluster, runSecrets);
  await plane.admin.create(
    `/apis/argoproj.io/v1alpha1/namespaces/${cluster.argocdNamespace}/appprojects`,
    DEFAULT_PROJECT(cluster.argocdNamespace),
  );
  const rendered = await render(tmp, catcher.port);
  const applied = await serverSideApply(kubectl, rendered);
  log(
    `applied ${applied.objects.length} objects from ${applied.files.length} rendered ` +
      `files${applied.warnings.length ? ` with ${applied.warnings.length} warnings` : ''}`,
  );
  const controllers = await startControllers(bin, plane, cluster, tmp);
  const forge = await startForge(built, notBuilt, tmp);
  const { redisVersion, ...argo } = await startArgo(bin, plane, cluster, tmp, [
    ...plane.processes,
    controllers.rollouts,
  ]);
  if (redisVersion !== undefined)
    versions.redis = { pinned: `Debian's ${REDIS_PACKAGE}`, printed: redisVersion, built: false, buildSeconds: 0 };
  const setupSeconds = (Date.now() - runStarted) / 1000 - buildSeconds;

  const ctx: E2eContext = {
    api: plane.admin,
    plane,
    catcher,
    cluster,
    kubectl,
    bin,
    controllers,
    tmp,
    rendered,
    secrets: runSecrets,
    ...forge,
    ...argo,
  };
  const results: ScenarioResult[] = [
    await runScenario(
      'apply the rendered cluster',
      'issue: installs what a cluster has',
      async (s) => {
        s.check('kubectl apply --server-side exits 0', applied.code === 0, applied.stderr);
        s.check(
          'every rendered object is accepted',
          applied.objects.length > 0 && applied.objects.every((line) => /serverside-applied$/.test(line)),
          applied.objects,
        );
        s.check('no warning', applied.warnings.length === 0, applied.warnings);
      },
      log,
    ),
  ];
  // The gitops loop's forge half runs beside the others; its Argo CD half syncs the whole folder and moves the
  // relay, which the others must not see, so it waits for them all.
  let othersDone: () => void = () => undefined;
  const others = new Promise<void>((resolve) => (othersDone = resolve));
  const only = selectedScenarios(process.env.GLIDEPATH_E2E_ONLY);
  const selected = (name: string): boolean => only === undefined || only.has(name);
  const loop = selected(GITOPS_LOOP)
    ? runScenario(
        GITOPS_LOOP,
        'issue 24, item 4: pr on a real forge, merged through its API, synced by a real Argo CD',
        (s) => gitopsLoop(ctx, s, others),
        log,
      )
    : undefined;
  const run = (scenario: ScenarioDefinition) =>
    runScenario(scenario.name, scenario.source, (s) => scenario.run(ctx, s), log);
  const chosen = SCENARIOS.filter((scenario) => selected(scenario.name));
  results.push(...(await Promise.all(chosen.filter((scenario) => !scenario.alone).map(run))));
  for (const scenario of chosen.filter((scenario) => scenario.alone)) results.push(await run(scenario));
  if (selected(WEBHOOK_DELIVERY))
    results.push(
      await runScenario(WEBHOOK_DELIVERY, 'README "Release facts from Argo Rollouts"', (s) => delivery(ctx, s), log),
    );
  othersDone();
  if (loop) results.push(await loop);

  const processes: Started[] = [
    ...plane.processes,
    controllers.rollouts,
    ...(controllers.argocd ? [controllers.argocd] : []),
    ...(forge.gitea ? [forge.gitea.process] : []),
    ...(argo.argocd ? [argo.argocd.redis.process, argo.argocd.repoServer, argo.argocd.controller] : []),
  ];
  const failed = results.filter((r) => !r.pass);
  const diagnostics = failed.length ? await clusterState(kubectl) : undefined;
  writeReport(REPORT_FILE, {
    schema: 'glidepath-e2e/v1',
    finishedAt: new Date().toISOString(),
    seconds: { total: (Date.now() - runStarted) / 1000, build: buildSeconds, setup: setupSeconds },
    versions,
    ...(notBuilt.length ? { buildFailures } : {}),
    cluster: { file: 'e2e/clusters/e2e.yaml', ...cluster, catcherPort: catcher.port },
    installed: { crds, namespaces, secrets, applied: applied.objects },
    scenarios: results,
    ...(failed.length ? { diagnostics, logs: Object.fromEntries(processes.map((p) => [p.name, logTail(p, 60)])) } : {}),
    requests: catcher.requests.map((r) => reportedRequest(r, reportedSecrets(runSecrets))),
  });
  await cleanup();
  const passed = results.length - failed.length;
  log(`report: ${REPORT_FILE}`);
  console.log(`e2e: ${passed} passed, ${failed.length} failed`);
  return failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    await cleanup();
    console.error(error instanceof E2eError ? `e2e: error: ${error.message}` : error);
    console.log('e2e: 0 passed, 1 failed');
    process.exit(error instanceof E2eError ? 2 : 1);
  },
);
