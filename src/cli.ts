#!/usr/bin/env node
/** The command line: the only module that reads argv, prints, and chooses exit codes. */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from './config/errors';
import { loadClusters } from './config/loader';
import { GitopsError } from './gitops/errors';
import { prerequisiteLines } from './prerequisites';
import { clusterBudgetSummary } from './prune/budget-summary';
import { renderCluster } from './render';
import { synth } from './synth';

// verify, pr and diff load their modules (schemas, Octokit, git) on first use, so that synth starts fast.
const loadVerify = async () => ({ ...(await import('./verify/run')), ...(await import('./verify/format')) });
const loadGitops = async () => ({
  ...(await import('./gitops/diff')),
  ...(await import('./gitops/pull-request')),
  ...(await import('./gitops/remote')),
  ...(await import('./gitops/report')),
});

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_BAD_INPUT = 2;

const USAGE = `glidepath-gitops: renders the manifests that feed Glidepath with release facts.

Usage:
  npm run synth [-- options]        render clusters/*.yaml into dist/<cluster>/
  npm run verify [-- --cluster NAME] render in memory and check every object (schema, Pod Security, RBAC,
                                    secrets, notifications); exit 1 on any violation
  npm run pr -- --cluster NAME [--repo URL|PATH] [--base BRANCH] [--dry-run]
                                    commit the render to a glidepath/<cluster>/<hash> branch of the gitops
                                    repo and open (or update) its pull request; needs GITHUB_TOKEN
  npm run diff -- --cluster NAME [--against URL|PATH] [--exit-code]
                                    the review (objects added/changed/removed, YAML diff) as Markdown,
                                    against what the gitops repo's base branch holds now

Options:
  --cluster NAME|FILE   only this cluster (a name from clusters/, or a cluster file)
  --relay-ip IP         override relay.ip of that cluster (IPv4 or IPv6), e.g. after the dev VM moved
  --clusters DIR        folder of cluster files (default: clusters)
  --out DIR             output folder (default: dist)
  --summary             also print what each cluster needs for facts to flow (Secret keys, labels, Veridor
                        objects, chart settings, lowest engine versions) and its notified annotation budget

pr and diff:
  --repo, --against URL|PATH  another gitops repo than gitops.repo of the cluster file
  --base BRANCH         another base branch than gitops.baseBranch
  --cache-dir DIR       where glidepath keeps its bare clones, one per gitops repo (default .glidepath-cache)
  --dry-run             pr: build the commit and the pull request text; push nothing, open nothing
  --api-url URL         GitHub API (default GITHUB_API_URL, else from the repo host: api.github.com or
                        https://<host>/api/v3 for GitHub Enterprise)
  --github-repo O/NAME  the repository on GitHub when the repo URL does not tell (a local path, a mirror)
  --source-dir DIR      the checkout of this repo whose HEAD the commit names (default: .)
  --exit-code           diff: exit 3 when the cluster differs from the base
  GITHUB_TOKEN          token for git over https (sent as a header) and the API; never printed
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
    for (const config of result.configs) for (const line of [...prerequisiteLines(config), ...clusterBudgetSummary(config)]) console.log(line);
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
  'source-dir': { type: 'string' },
  'dry-run': { type: 'boolean' },
  'exit-code': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

/** The one cluster `pr` or `diff` works on, rendered by the same code as synth. */
function gitopsArgs(command: 'pr' | 'diff', args: string[]) {
  const { values } = parseArgs({ args, options: GITOPS_OPTIONS, strict: true, allowPositionals: false });
  if (values.help) return { help: true as const };
  const unsupported = command === 'pr' ? (['against', 'exit-code'] as const) : (['repo', 'dry-run', 'github-repo', 'api-url', 'source-dir'] as const);
  for (const name of unsupported) {
    if (values[name] !== undefined) throw new GitopsError('input', `--${name} is not an option of ${command}`, `npm run ${command} -- --help lists the options`);
  }
  if (values.cluster === undefined) {
    throw new GitopsError('input', `${command} works on one cluster: --cluster is missing`, `e.g. npm run ${command} -- --cluster prod`);
  }
  const [loaded] = loadClusters({ dir: values.clusters, cluster: values.cluster });
  const config = loaded!.config;
  const token = envValue('GITHUB_TOKEN');
  const repo = values.repo ?? values.against;
  return {
    help: false as const,
    values,
    common: {
      config,
      files: renderCluster(config),
      ...(repo !== undefined ? { repo } : {}),
      ...(values.base !== undefined ? { base: values.base } : {}),
      ...(values['cache-dir'] !== undefined ? { cacheRoot: values['cache-dir'] } : {}),
      ...(token !== undefined ? { token } : {}),
    },
  };
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
  const { values, common } = parsed;
  const { DEFAULT_IDENTITY, formatPullRequestResult, openPullRequest, parseGithubRepo } = await loadGitops();
  const apiUrl = values['api-url'] ?? envValue('GITHUB_API_URL');
  const result = await openPullRequest({
    ...common,
    dryRun: values['dry-run'] ?? false,
    ...(apiUrl !== undefined ? { apiUrl } : {}),
    ...(values['github-repo'] !== undefined ? { githubRepo: parseGithubRepo(values['github-repo']) } : {}),
    ...(values['source-dir'] !== undefined ? { sourceDir: values['source-dir'] } : {}),
    identity: {
      name: envValue('GLIDEPATH_GIT_NAME') ?? DEFAULT_IDENTITY.name,
      email: envValue('GLIDEPATH_GIT_EMAIL') ?? DEFAULT_IDENTITY.email,
    },
  });
  for (const line of formatPullRequestResult(result)) console.log(line);
  return EXIT_OK;
}

async function runDiff(args: string[]): Promise<number> {
  const parsed = gitopsArgs('diff', args);
  if (parsed.help) {
    console.log(USAGE);
    return EXIT_OK;
  }
  const { diffAgainstGitops } = await loadGitops();
  const result = await diffAgainstGitops(parsed.common);
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
