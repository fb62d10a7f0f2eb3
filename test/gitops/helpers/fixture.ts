/** One gitops scenario: a bare remote with content around the owned folder, the API stand-in, a source checkout. */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { ClusterConfig, ClusterFile } from '../../../src/config/schema';
import { valuesFile } from '../../../src/gitops/cluster-values';
import { GitopsError } from '../../../src/gitops/errors';
import { secretForms } from '../../../src/gitops/redact';
import { shipClusters } from '../../../src/gitops/ship';
import type { PullRequestResult, ShipSettings } from '../../../src/gitops/ship-types';
import { KUSTOMIZATION_FILE, kustomizationYaml } from '../../../src/render/kustomization';
import type { RenderedFile } from '../../../src/render/render-cluster';
import { clusterConfig } from '../../helpers/cluster-files';
import { renderOnce } from '../../helpers/render-once';
import { startGithubApiStandIn, type ApiStandIn } from './github-api-stand-in';
import { startGitlabApiStandIn } from './gitlab-api-stand-in';
import { startGiteaApiStandIn } from './gitea-api-stand-in';
import { bareRemote, commitFiles, isRef, sourceCheckout, tempDir } from './git-repos';

export const TOKEN = 'ghs_standInToken0123456789abcdefXYZ';
export const FOLDER = 'clusters/prod/glidepath';

/** Files outside the owned folder: they must come through every run byte for byte. */
export const UNRELATED: Record<string, string> = {
  'README.md': '# cluster gitops\n',
  'clusters/prod/apps/invoices.yaml': 'kind: Application\nmetadata:\n  name: invoices\n',
  'clusters/dev/glidepath/veridor-gate-shop.k8s.yaml': 'kind: AnalysisTemplate\nmetadata:\n  name: dev-copy\n',
  'clusters/prod/glidepath-notes.txt': 'a sibling whose name starts like the folder\n',
};

export function prodConfig(overrides: Partial<ClusterFile> = {}, repo = 'unused'): ClusterConfig {
  return clusterConfig({ name: 'prod', gitops: { repo, path: FOLDER }, ...overrides });
}

/**
 * The render of a scenario's config, once per test worker: each scenario has its own remote, and no manifest
 * depends on gitops.repo, so the render is of the config with the repo left out.
 */
export function rendered(config: ClusterConfig): RenderedFile[] {
  return renderOnce({ ...config, gitops: { ...config.gitops, repo: '' } });
}

/** Each distinct remote is made once per test file (git init + fast-import) and copied for every test. */
const templates = new Map<string, Promise<string>>();
let source: Promise<{ dir: string; commit: string }> | undefined;

async function copyOfRemote(files: Record<string, string>): Promise<string> {
  const key = JSON.stringify(files);
  let template = templates.get(key);
  if (template === undefined) {
    template = bareRemote(files);
    templates.set(key, template);
  }
  const copy = join(tempDir('remote'), 'cluster-gitops.git');
  cpSync(await template, copy, { recursive: true });
  return copy;
}

/** Every scenario's API stand-in stays up until its test file ends, so that the file's tests can run at once. */
const running = new Set<Scenario>();

/** Each gitops test file ends with this: `afterAll(closeScenarios)`. */
export async function closeScenarios(): Promise<void> {
  const closing = [...running];
  running.clear();
  await Promise.all(closing.map((s) => s.api.close()));
}

/** One cluster's run: the settings, the cluster and its render, and the token of whichever provider it uses. */
interface RunOptions extends ShipSettings {
  readonly config: ClusterConfig;
  readonly files: readonly RenderedFile[];
  readonly token?: string;
}

/** Options a test sets or clears: `token: undefined` runs without one. */
export type OptionOverrides = { [K in keyof RunOptions]?: RunOptions[K] | undefined };

/** `pr` for one cluster, through the entry point the command uses; the cluster's failure is thrown. */
async function shipOne(options: RunOptions): Promise<PullRequestResult> {
  const { token, config, files, ...settings } = options;
  const tokens = token === undefined || token === '' ? {} : { github: token, gitlab: token, gitea: token };
  const [outcome] = await shipClusters({
    ...settings,
    tokens: { ...tokens, ...settings.tokens },
    clusters: [{ config, files }],
  });
  if (outcome?.error !== undefined) throw outcome.error;
  return outcome!.result!;
}

export interface Scenario {
  readonly remote: string;
  readonly api: ApiStandIn;
  readonly cacheDir: string;
  readonly source: { dir: string; commit: string };
  readonly config: ClusterConfig;
  /** `pr` with this scenario's remote, API, cache and source; `options` override. */
  run(options?: OptionOverrides): Promise<PullRequestResult>;
}

/**
 * The remote's main holds UNRELATED plus the owned folder as an older release left it: the first rendered
 * file with other content, a file that is no longer rendered, the kustomization listing both, and the values it was
 * rendered from.
 */
export async function scenario(
  folderFiles?: Record<string, string>,
  provider: 'github' | 'gitlab' | 'gitea' = 'github',
): Promise<Scenario> {
  const config = prodConfig();
  const first = rendered(config)[0]!;
  const inFolder = folderFiles ?? {
    [first.path]: withOldLabel(first.content),
    'retired-chart.k8s.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: retired\n  namespace: shop\ndata: {}\n',
    [KUSTOMIZATION_FILE]: kustomizationYaml(config.name, [first.path, 'retired-chart.k8s.yaml']),
    [valuesFile(config).path]: valuesFile(config).content,
  };
  const remote = await copyOfRemote({
    ...UNRELATED,
    ...Object.fromEntries(Object.entries(inFolder).map(([p, c]) => [`${FOLDER}/${p}`, c])),
  });
  const branchExists = (branch: string) => isRef(remote, `refs/heads/${branch}`);
  const standIns = { github: startGithubApiStandIn, gitlab: startGitlabApiStandIn, gitea: startGiteaApiStandIn };
  const api = await standIns[provider]({ token: TOKEN, branchExists });
  const cacheDir = join(tempDir('cache'), 'cluster-gitops');
  const sourceRepo = await (source ??= sourceCheckout());
  const withRemote = { ...config, gitops: { ...config.gitops, repo: remote } };
  const opened: Scenario = {
    remote,
    api,
    cacheDir,
    source: sourceRepo,
    config: withRemote,
    run: ({ config: configOverride, files, ...options } = {}) => {
      const cfg = configOverride ?? withRemote;
      return shipOne({
        config: cfg,
        files: files ?? rendered(cfg),
        token: TOKEN,
        apiUrl: { github: api.url, gitlab: `${api.url}/api/v4`, gitea: `${api.url}/api/v1` }[provider],
        provider,
        remotePath: { owner: api.owner, name: api.repo },
        allowInsecureHttp: true,
        cacheDir,
        sourceDir: sourceRepo.dir,
        api: { retries: 2, retryDelayMs: 1, rateLimitRetries: 2, writeSpacingMs: 0 },
        // The flow reads an option set to undefined as one left out.
        ...(options as Partial<RunOptions>),
      });
    },
  };
  running.add(opened);
  return opened;
}

/**
 * A scenario whose first run proposed prod's render on `branch`; `review` and `onMain` commit files there as a
 * person would; `changed` is the cluster with another render.
 */
export async function proposed() {
  const s = await scenario();
  const first = await s.run();
  const branch = first.branch!;
  return {
    s,
    first,
    branch,
    review: (files: Record<string, string>, message: string) => commitFiles(s.remote, branch, files, message),
    onMain: (files: Record<string, string>, message: string) => commitFiles(s.remote, 'main', files, message),
    changed: { ...s.config, veridor: { ...s.config.veridor, failOn: 'confirmed' as const } },
  };
}

/** The same objects with one more label on the first: "changed" at the object level. */
/** `pr` of the cluster prod from `clusters` into the scenario's stand-in GitHub, bare remote and cache. */
export function prodPrArgs(s: Scenario, clusters: string): string[] {
  return [
    'pr',
    '--clusters',
    clusters,
    '--cluster',
    'prod',
    '--github-repo',
    'hangar-io/cluster-gitops',
    '--api-url',
    s.api.url,
    '--cache-dir',
    s.cacheDir,
    '--source-dir',
    s.source.dir,
    '--allow-insecure-http',
  ];
}

export function withOldLabel(content: string): string {
  const docs = parseAllDocuments(content);
  if (!Array.isArray(docs) || docs.length === 0) throw new Error('rendered file without documents');
  docs[0]!.setIn(['metadata', 'labels', 'old'], 'true');
  return docs.map((d) => d.toString()).join('---\n');
}

/** What glidepath writes into the folder for a config: the render and the values file. */
export function folderFilesOf(config: ClusterConfig): RenderedFile[] {
  return [...rendered(config), valuesFile(config)];
}

/** Runs and returns the GitopsError, proving on the way that neither the token nor its Basic forms leak. */
export async function failure(run: Promise<unknown>): Promise<GitopsError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitopsError);
  const gitopsError = error as GitopsError;
  for (const text of [gitopsError.message, gitopsError.fix, String(gitopsError.stack)]) {
    for (const form of secretForms(TOKEN)) expect(text).not.toContain(form);
  }
  return gitopsError;
}
