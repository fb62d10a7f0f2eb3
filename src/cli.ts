#!/usr/bin/env node
/** The command line: the only module that reads argv, prints, and chooses exit codes. */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from './config/errors';
import { loadClusters } from './config/loader';
import { GitopsError } from './gitops/errors';
import { clusterBudgetSummary } from './prune/budget-summary';
import { renderCluster } from './render';
import { synth } from './synth';

// verify, pr and diff load their modules (schemas, Octokit, git) on first use, so that synth starts fast.
const loadVerify = async () => ({ ...(await import('./verify/run')), ...(await import('./verify/format')) });
const loadGitops = async () => ({
  ...(await import('./gitops/diff')),
  ...(await import('./gitops/pull-request')),
  ...(await import('./gitops/ship')),
  ...(await import('./gitops/remote')),
  ...(await import('./gitops/report')),
  ...(await import('./gitops/providers/select')),
  ...(await import('./gitops/source')),
});

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_BAD_INPUT = 2;

const USAGE = `glidepath-gitops: renders the manifests that feed Glidepath with release facts.

Usage:
  npm run synth [-- options]        render clusters/*.yaml into dist/<cluster>/
  npm run verify [-- --cluster NAME] render in memory and check every object (schema, Pod Security, RBAC,
                                    secrets, notifications); exit 1 on any violation
  npm run pr -- --cluster NAME|--all [--provider github|gitlab|none] [--repo URL|PATH] [--dry-run]
                                    commit the render to a glidepath/<cluster>/<hash> branch of the gitops
                                    repo and open (or update) its pull or merge request (none: push only)
  npm run diff -- --cluster NAME [--against URL|PATH] [--exit-code]
                                    the review (objects added/changed/removed, YAML diff) as Markdown,
                                    against what the gitops repo's base branch holds now

Options:
  --cluster NAME|FILE   only this cluster (a name from clusters/, or a cluster file)
  --relay-ip IP         override relay.ip of that cluster (IPv4 or IPv6), e.g. after the dev VM moved
  --clusters DIR        folder of cluster files (default: clusters)
  --out DIR             output folder (default: dist)
  --summary             also print each cluster's growth budget of the notified annotation (see README)

pr and diff:
  --repo, --against URL|PATH  another gitops repo than gitops.repo of the cluster file
  --base BRANCH         another base branch than gitops.baseBranch
  --cache-dir DIR       where glidepath keeps its bare clones, one per gitops repo (default .glidepath-cache)
  --dry-run             pr: build the commit and the change's text; push nothing, open nothing
  --all                 pr: every cluster, one change each (one fetch per gitops repo); a summary line each
  --provider NAME       github, gitlab or none (default gitops.provider, else from github.com/gitlab.com)
  --api-url URL         the provider's API (default GITHUB_API_URL / from the repo host: api.github.com,
                        https://<host>/api/v3 for GitHub Enterprise, https://<host>/api/v4 for GitLab)
  --remote-path PATH    the repository on its host when the URL does not tell: OWNER/NAME or
                        GROUP/SUBGROUP/NAME (--github-repo is the same)
  --push-option TEXT    passed to git push --push-option (repeatable), e.g. merge_request.create
  --draft, --label L, --reviewer NAME   a new change as a draft, its labels and reviewers (repeatable)
  --gitlab-auth MODE    private-token (default) or bearer (OAuth and CI job tokens)
  --allow-insecure-http send the token to an http:// remote or API (refused otherwise)
  --source-dir DIR      the checkout of this repo whose HEAD the commit names (default: .)
  --source-url URL      this repo's web page, for a link to the source commit (default from the CI)
  --exit-code           diff: exit 3 when the cluster differs from the base
  GITHUB_TOKEN, GITLAB_TOKEN  the provider's token for git over https (a header) and its API; never printed
  GLIDEPATH_GIT_NAME, GLIDEPATH_GIT_EMAIL  commit author (default glidepath-gitops)
  -h, --help            show this help

Exit codes: 0 done, 1 failure, 2 bad input (nothing was written), 3 diff --exit-code: changes.`;

const OPTIONS = {
  cluster: { type: 'string' },
  'relay-ip': { type: 'string' },
  clusters: { type: 'string', default: 'clusters' },
  // `cdk8s synth` passes its output folder in CDK8S_OUTDIR.
  out: { type: 'string', default: process.env.CDK8S_OUTDIR ?? 'dist' },
  summary: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

export function main(argv: readonly string[]): number | Promise<number> {
  const [command = 'synth', ...rest] = argv[0]?.startsWith('-') ? ['synth', ...argv] : argv;
  try {
    switch (command) {
      case 'synth':
        return runSynth(rest).catch(reportError);
      case 'verify':
        return runVerify(rest).catch(reportError);
      case 'pr':
        return runPr(rest).catch(reportError);
      case 'diff':
        return runDiff(rest).catch(reportError);
      case 'help':
        console.log(USAGE);
        return EXIT_OK;
      default:
        console.error(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
        return EXIT_BAD_INPUT;
    }
  } catch (error) {
    return reportError(error);
  }
}

async function runSynth(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    console.log(USAGE);
    return EXIT_OK;
  }
  const result = await synth({
    dir: values.clusters,
    outDir: values.out,
    ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
    ...(values['relay-ip'] !== undefined ? { relayIp: values['relay-ip'] } : {}),
  });
  for (const cluster of result.clusters) {
    console.log(`${result.outDir}/${cluster.name}/ (${cluster.files.length} files)`);
    for (const file of cluster.files) console.log(`  ${file.path}`);
  }
  if (values.summary) {
    for (const config of result.configs) for (const line of clusterBudgetSummary(config)) console.log(line);
  }
  return EXIT_OK;
}

const VERIFY_OPTIONS = {
  cluster: { type: 'string' },
  clusters: { type: 'string', default: 'clusters' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

async function runVerify(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: VERIFY_OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    console.log(USAGE);
    return EXIT_OK;
  }
  const loaded = loadClusters({ dir: values.clusters, ...(values.cluster !== undefined ? { cluster: values.cluster } : {}) });
  const { formatReport, formatTotals, secretsFromEnvironment, verifyCluster } = await loadVerify();
  const knownSecrets = secretsFromEnvironment(process.env);
  const reports = loaded.map(({ file, config }) => {
    const report = verifyCluster(config, { knownSecrets });
    for (const line of formatReport(report, file)) console.log(line);
    return report;
  });
  console.log(formatTotals(reports));
  return reports.some((r) => r.violations.length > 0) ? EXIT_FAILURE : EXIT_OK;
}

const EXIT_DIFFERS = 3;

const GITOPS_OPTIONS = {
  cluster: { type: 'string' },
  clusters: { type: 'string', default: 'clusters' },
  repo: { type: 'string' },
  against: { type: 'string' },
  base: { type: 'string' },
  'cache-dir': { type: 'string' },
  'api-url': { type: 'string' },
  'github-repo': { type: 'string' },
  'remote-path': { type: 'string' },
  'source-dir': { type: 'string' },
  'source-url': { type: 'string' },
  'dry-run': { type: 'boolean' },
  all: { type: 'boolean' },
  provider: { type: 'string' },
  'push-option': { type: 'string', multiple: true },
  draft: { type: 'boolean' },
  label: { type: 'string', multiple: true },
  reviewer: { type: 'string', multiple: true },
  'gitlab-auth': { type: 'string' },
  'allow-insecure-http': { type: 'boolean' },
  'exit-code': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

/** The one cluster `pr` or `diff` works on, rendered by the same code as synth. */
function gitopsArgs(command: 'pr' | 'diff', args: string[]) {
  const { values } = parseArgs({ args, options: GITOPS_OPTIONS, strict: true, allowPositionals: false });
  if (values.help) return { help: true as const };
  const unsupported = command === 'pr' ? (['against', 'exit-code'] as const) : (['repo', 'dry-run', 'github-repo', 'remote-path', 'api-url', 'source-dir', 'source-url', 'all', 'push-option', 'draft', 'label', 'reviewer', 'gitlab-auth'] as const);
  for (const name of unsupported) {
    if (values[name] !== undefined) throw new GitopsError('input', `--${name} is not an option of ${command}`, `npm run ${command} -- --help lists the options`);
  }
  if (values.all === true && values.cluster !== undefined) throw new GitopsError('input', 'pr takes --cluster or --all, not both', 'e.g. npm run pr -- --all');
  if (values.cluster === undefined && values.all !== true) {
    throw new GitopsError('input', `${command} works on one cluster: --cluster is missing`, `e.g. npm run ${command} -- --cluster prod${command === 'pr' ? ' (or --all for every cluster)' : ''}`);
  }
  const loaded = loadClusters({ dir: values.clusters, ...(values.cluster !== undefined ? { cluster: values.cluster } : {}) });
  const tokens = { ...optional('github', envValue('GITHUB_TOKEN')), ...optional('gitlab', envValue('GITLAB_TOKEN')) };
  const repo = values.repo ?? values.against;
  return {
    help: false as const,
    values,
    configs: loaded.map((l) => l.config),
    common: {
      ...(repo !== undefined ? { repo } : {}),
      ...(values.base !== undefined ? { base: values.base } : {}),
      ...(values['cache-dir'] !== undefined ? { cacheRoot: values['cache-dir'] } : {}),
      ...(values['allow-insecure-http'] === true ? { allowInsecureHttp: true } : {}),
      tokens,
    },
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** An environment variable, with an empty value counted as unset (as CI systems pass missing secrets). */
function envValue(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

async function runPr(args: string[]): Promise<number> {
  const parsed = gitopsArgs('pr', args);
  if (parsed.help) {
    console.log(USAGE);
    return EXIT_OK;
  }
  const { values, common, configs } = parsed;
  const g = await loadGitops();
  const apiUrl = values['api-url'] ?? envValue('GITHUB_API_URL');
  const remotePath = values['remote-path'] ?? values['github-repo'];
  const gitlabAuth = values['gitlab-auth'];
  if (gitlabAuth !== undefined && gitlabAuth !== 'private-token' && gitlabAuth !== 'bearer') {
    throw new GitopsError('input', `--gitlab-auth ${JSON.stringify(gitlabAuth)} is not private-token or bearer`, 'bearer for OAuth and CI job tokens, private-token (the default) for access tokens');
  }
  const sourceCommitUrl = g.commitUrlBase(process.env, values['source-url']);
  const files = values.all === true ? await (await import('./output/render-pool')).renderClusters(configs) : configs.map((config) => ({ files: renderCluster(config) }));
  const outcomes = await g.shipClusters({
    ...common,
    clusters: configs.map((config, i) => ({ config, files: files[i]!.files })),
    dryRun: values['dry-run'] ?? false,
    // --github-repo says the host is GitHub's.
    ...(values.provider !== undefined ? { provider: g.parseProvider(values.provider) } : values['github-repo'] !== undefined ? { provider: 'github' as const } : {}),
    ...(apiUrl !== undefined ? { apiUrl } : {}),
    ...(remotePath !== undefined ? { remotePath: g.parseRepoPath(remotePath, values['remote-path'] !== undefined ? '--remote-path' : '--github-repo') } : {}),
    ...(gitlabAuth !== undefined ? { gitlabAuth } : {}),
    ...(values['source-dir'] !== undefined ? { sourceDir: values['source-dir'] } : {}),
    ...(sourceCommitUrl !== undefined ? { sourceCommitUrl } : {}),
    ...(values['push-option'] !== undefined ? { pushOptions: values['push-option'] } : {}),
    extras: { draft: values.draft ?? false, labels: values.label ?? [], reviewers: values.reviewer ?? [] },
    identity: {
      name: envValue('GLIDEPATH_GIT_NAME') ?? g.DEFAULT_IDENTITY.name,
      email: envValue('GLIDEPATH_GIT_EMAIL') ?? g.DEFAULT_IDENTITY.email,
    },
  });
  if (values.all !== true) {
    const [outcome] = outcomes;
    if (outcome?.error !== undefined) throw outcome.error;
    for (const line of g.formatPullRequestResult(outcome!.result!)) console.log(line);
    return EXIT_OK;
  }
  for (const outcome of outcomes) {
    if (outcome.result !== undefined) for (const line of g.formatPullRequestResult(outcome.result)) console.log(line);
  }
  const summary = g.formatFleetSummary(outcomes);
  const failed = outcomes.some((o) => o.error !== undefined);
  for (const line of summary) console.log(line);
  return failed ? EXIT_FAILURE : EXIT_OK;
}

async function runDiff(args: string[]): Promise<number> {
  const parsed = gitopsArgs('diff', args);
  if (parsed.help) {
    console.log(USAGE);
    return EXIT_OK;
  }
  const { diffAgainstGitops, parseProvider } = await loadGitops();
  const config = parsed.configs[0]!;
  const result = await diffAgainstGitops({
    ...parsed.common,
    config,
    files: renderCluster(config),
    ...(parsed.values.provider !== undefined ? { provider: parseProvider(parsed.values.provider) } : {}),
  });
  console.log(result.markdown);
  return parsed.values['exit-code'] && result.changed ? EXIT_DIFFERS : EXIT_OK;
}

function reportError(error: unknown): number {
  if (error instanceof GitopsError) {
    console.error(`error: ${error.message}`);
    console.error(`hint: ${error.hint}`);
    return error.isInputError ? EXIT_BAD_INPUT : EXIT_FAILURE;
  }
  if (error instanceof ConfigError) {
    for (const problem of error.problems) console.error(problem);
    console.error('nothing was written.');
    return EXIT_BAD_INPUT;
  }
  if (isArgError(error)) {
    console.error(`${error.message}\n\n${USAGE}`);
    return EXIT_BAD_INPUT;
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return EXIT_FAILURE;
}

function isArgError(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  return script !== undefined && import.meta.url === pathToFileURL(realpathSync(script)).href;
}

/** Runs the CLI and sets the exit code; scripts/cli.mjs calls this on the bundled build. */
export async function run(argv: readonly string[]): Promise<void> {
  process.exitCode = await main(argv);
}

if (isEntryPoint()) await run(process.argv.slice(2));
