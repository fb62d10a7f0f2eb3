/**
 * `pr`: commit the render to a glidepath branch of the gitops repo and open (or update) its change; `--all` for every
 * cluster.
 */
import { secretsFromEnvironment } from '../config/environment-secrets';
import { shownArgument } from '../config/shown-input';
import { GlidepathError } from '../errors';
import { type ShipCluster } from '../gitops/ship-types';
import { commitIdentity, parseAuthor } from '../gitops/commit-identity';
import { parseRepoPath } from '../gitops/remote';
import { formatFleetSummary, formatPullRequestResult } from '../gitops/report';
import { shipClusters } from '../gitops/ship';
import { prJson } from '../json-output/documents';
import { jsonLine } from '../json-output/shapes';
import { commitUrlBase, sourcePage } from '../gitops/source';
import { renderCluster } from '../render/render-cluster';
import { renderClusters } from '../render/render-pool';
import { defineCommand, type CommandContext } from './command';
import { everyCluster, gitopsSettings, oneCluster, relayIpOverrideNote } from './gitops-target';
import {
  envValue,
  PROVIDER_TOKEN_NOTE,
  gitopsTargetOptions,
  jsonOutput,
  refuseMissingFolder,
  refuseSecretArgument,
} from './options';
import { skipVerifyOption, verifyRenders } from './verify-before-shipping';

const SOURCE_URL_FIX =
  "give this repository's web page without credentials, e.g. --source-url https://github.com/org/glidepath-gitops " +
  "(it overrides the CI's variables)";

export default defineCommand({
  name: 'pr',
  summary:
    'commit the render to a glidepath/<cluster>/<hash> branch of the gitops repo and open (or update) its ' +
    'pull or merge request',
  usage: 'glidepath pr --cluster NAME|--all [options]',
  options: {
    ...gitopsTargetOptions,
    cluster: {
      ...gitopsTargetOptions.cluster,
      description: 'the one cluster to ship, a name from the clusters folder or a cluster file (or --all)',
    },
    all: {
      type: 'boolean',
      description: 'every cluster, one change each: one fetch per gitops repo, a summary line per cluster',
    },
    'dry-run': { type: 'boolean', description: "build the commit and the change's text; push nothing, open nothing" },
    ...skipVerifyOption,
    'api-url': {
      type: 'string',
      value: 'URL',
      description:
        "the provider's API (default GITHUB_API_URL for github, else from the host: api.github.com, " +
        'https://<host>/api/v3 for GitHub Enterprise, https://<host>/api/v4 for GitLab, https://<host>/api/v1 ' +
        'for Gitea)',
    },
    'remote-path': {
      type: 'string',
      value: 'PATH',
      description:
        'the repository on its host when the URL does not tell: OWNER/NAME, or GROUP/SUBGROUP/NAME on GitLab',
    },
    'github-repo': {
      type: 'string',
      value: 'OWNER/NAME',
      description: 'the same as --remote-path, for GitHub (implies --provider github)',
    },
    'push-option': {
      type: 'string',
      value: 'TEXT',
      multiple: true,
      description: 'passed to git push --push-option, e.g. merge_request.label=glidepath (repeatable)',
    },
    draft: { type: 'boolean', description: 'open a new change as a draft (github, gitlab, gitea: a WIP: title)' },
    label: {
      type: 'string',
      value: 'NAME',
      multiple: true,
      description: 'label a new change (repeatable; github, gitlab, gitea: an existing label)',
    },
    reviewer: {
      type: 'string',
      value: 'USER',
      multiple: true,
      description: 'ask for a review of a new change (repeatable; GitHub and Gitea teams as ORG/TEAM)',
    },
    'gitlab-auth': {
      type: 'string',
      value: 'MODE',
      description: 'private-token (default: personal, project and group access tokens) or bearer (OAuth 2.0 tokens)',
    },
    author: {
      type: 'string',
      value: "'NAME <EMAIL>'",
      description:
        "the commits' author and committer (default: GLIDEPATH_GIT_NAME and GLIDEPATH_GIT_EMAIL; in CI " +
        'glidepath-gitops; else your git user.name and user.email)',
    },
    'source-dir': {
      type: 'string',
      value: 'DIR',
      description: 'the checkout of this repo whose HEAD the commit names (default: .)',
    },
    'source-url': {
      type: 'string',
      value: 'URL',
      description: "this repo's web page, for a link to the source commit (default from the CI's environment)",
    },
    ...jsonOutput,
  },
  notes: [
    PROVIDER_TOKEN_NOTE,
    'GLIDEPATH_GIT_NAME, GLIDEPATH_GIT_EMAIL  commit author unless --author (default: your git user.name and ' +
      'user.email; glidepath-gitops in CI)',
    '',
    'Exit codes: 0 done, 1 failure (--all: any cluster failed), 2 bad input.',
  ],

  async run(values, context) {
    const loaded = values.all === true ? everyCluster(values, context) : [oneCluster('pr', values, context, true)];
    const gitlabAuth = values['gitlab-auth'];
    if (gitlabAuth !== undefined && gitlabAuth !== 'private-token' && gitlabAuth !== 'bearer') {
      throw new GlidepathError(
        `--gitlab-auth ${shownArgument(gitlabAuth, secretsFromEnvironment(context.env))} is not private-token or ` +
          'bearer',
        'bearer for OAuth 2.0 tokens, private-token (the default) for access tokens',
      );
    }
    const author = values.author === undefined ? undefined : parseAuthor(values.author);
    if (values.author !== undefined && author === undefined)
      throw new GlidepathError(
        `--author ${shownArgument(values.author, secretsFromEnvironment(context.env))} is not NAME <EMAIL>`,
        "give a name and an address as git writes them, e.g. --author 'Ada Lovelace <ada@example.org>'",
      );
    const settings = gitopsSettings(values, context);
    // What travels into the API's requests, the push and the change itself.
    for (const option of [
      'api-url',
      'remote-path',
      'github-repo',
      'push-option',
      'label',
      'reviewer',
      'author',
    ] as const)
      refuseSecretArgument(`--${option}`, values[option], context.env);
    const apiUrl = values['api-url'];
    const githubApiUrl = envValue(context.env, 'GITHUB_API_URL');
    refuseSecretArgument('GITHUB_API_URL', githubApiUrl, context.env, 'the URL');
    const remotePath = values['remote-path'] ?? values['github-repo'];
    // The page goes into the change's body as the source link.
    const page = sourcePage(context.env, values['source-url']);
    if (page !== undefined) refuseSecretArgument(page.from, page.url, context.env, 'the URL', SOURCE_URL_FIX);
    const sourceCommitUrl = commitUrlBase(page);
    refuseMissingFolder(
      '--source-dir',
      values['source-dir'],
      context,
      'pass the checkout of this repository whose commit the change names, or leave --source-dir out for the ' +
        'working directory',
    );
    const clusters = await rendered(
      loaded.map((l) => l.config),
      context,
    );
    const unverified = values['skip-verify'] === true;
    const refused = verifyRenders('pr', loaded, clusters, context, unverified);
    // --relay-ip takes one cluster (the loader refuses it with --all).
    const override = loaded.length === 1 ? relayIpOverrideNote(values, loaded[0]!.config) : undefined;
    const shipped = await shipClusters({
      ...settings,
      // --github-repo says the host is GitHub's.
      ...(settings.provider === undefined && values['github-repo'] !== undefined
        ? { provider: 'github' as const, providerOption: '--github-repo' }
        : {}),
      clusters: clusters.filter((c) => !refused.has(c.config.name)),
      ...(unverified ? { unverified } : {}),
      ...(override !== undefined ? { override } : {}),
      dryRun: values['dry-run'] ?? false,
      ...(apiUrl !== undefined ? { apiUrl } : {}),
      ...(githubApiUrl !== undefined ? { githubApiUrl } : {}),
      ...(remotePath !== undefined
        ? {
            remotePath: parseRepoPath(
              remotePath,
              values['remote-path'] !== undefined ? '--remote-path' : '--github-repo',
            ),
          }
        : {}),
      ...(gitlabAuth !== undefined ? { gitlabAuth } : {}),
      ...(values['source-dir'] !== undefined ? { sourceDir: values['source-dir'] } : {}),
      ...(sourceCommitUrl !== undefined ? { sourceCommitUrl } : {}),
      ...(values['push-option'] !== undefined ? { pushOptions: values['push-option'] } : {}),
      extras: { draft: values.draft ?? false, labels: values.label ?? [], reviewers: values.reviewer ?? [] },
      identity: commitIdentity(context.env, values['source-dir'], undefined, author),
    });
    const outcomes = clusters.map(
      ({ config }) =>
        shipped.find((o) => o.cluster === config.name) ?? { cluster: config.name, error: refused.get(config.name)! },
    );
    if (values.json) {
      // One cluster's failure is an error as in the text output (stderr, exit 1 or 2); --all lists it as failed.
      if (values.all !== true && outcomes[0]?.error !== undefined) throw outcomes[0].error;
      const document = prJson(outcomes, values['dry-run'] ?? false);
      context.print(jsonLine(document));
      return document.ok ? 'done' : 'failure';
    }
    if (values.all !== true) {
      const [outcome] = outcomes;
      if (outcome?.error !== undefined) throw outcome.error;
      for (const line of formatPullRequestResult(outcome!.result!)) context.print(line);
      return 'done';
    }
    for (const outcome of outcomes)
      if (outcome.result !== undefined) for (const line of formatPullRequestResult(outcome.result)) context.print(line);
    for (const line of formatFleetSummary(outcomes)) context.print(line);
    return outcomes.some((o) => o.error !== undefined) ? 'failure' : 'done';
  },
});

/** A fleet renders on worker threads; an injected renderer (tests) renders here. */
async function rendered(
  configs: readonly import('../config/schema').ClusterConfig[],
  context: CommandContext,
): Promise<ShipCluster[]> {
  if (context.render !== renderCluster || configs.length === 1)
    return configs.map((config) => ({ config, files: context.render(config) }));
  const clusters = await renderClusters(configs);
  return configs.map((config, i) => ({ config, files: clusters[i]!.files }));
}
