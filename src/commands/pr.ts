/** `pr`: commit the render to a glidepath branch of the gitops repo and open (or update) its pull request. */
import { DEFAULT_IDENTITY, openPullRequest } from '../gitops/pull-request';
import { parseGithubRepo } from '../gitops/remote';
import { formatPullRequestResult } from '../gitops/report';
import { defineCommand } from './command';
import { gitopsTarget } from './gitops-target';
import { envValue, GITHUB_TOKEN_NOTE, gitopsTargetOptions } from './options';

export default defineCommand({
  name: 'pr',
  summary: 'commit the render to a glidepath/<cluster>/<hash> branch of the gitops repo and open (or update) its pull request',
  usage: 'npm run pr -- --cluster NAME [options]',
  options: {
    ...gitopsTargetOptions,
    'dry-run': { type: 'boolean', description: 'build the commit and the pull request text; push nothing, open nothing' },
    'api-url': {
      type: 'string',
      value: 'URL',
      description: 'GitHub API (default GITHUB_API_URL, else from the repo host: api.github.com or https://<host>/api/v3)',
    },
    'github-repo': { type: 'string', value: 'OWNER/NAME', description: 'the repository on GitHub when the repo URL does not tell (a local path, a mirror)' },
    'source-dir': { type: 'string', value: 'DIR', description: 'the checkout of this repo whose HEAD the commit names (default: .)' },
  },
  notes: [
    GITHUB_TOKEN_NOTE,
    'GLIDEPATH_GIT_NAME, GLIDEPATH_GIT_EMAIL  commit author (default glidepath-gitops)',
    '',
    'Exit codes: 0 done, 1 failure, 2 bad input.',
  ],

  async run(values, context) {
    const target = gitopsTarget('pr', values, context);
    const apiUrl = values['api-url'] ?? envValue(context.env, 'GITHUB_API_URL');
    const result = await openPullRequest({
      ...target,
      dryRun: values['dry-run'] ?? false,
      ...(apiUrl !== undefined ? { apiUrl } : {}),
      ...(values['github-repo'] !== undefined ? { githubRepo: parseGithubRepo(values['github-repo']) } : {}),
      ...(values['source-dir'] !== undefined ? { sourceDir: values['source-dir'] } : {}),
      identity: {
        name: envValue(context.env, 'GLIDEPATH_GIT_NAME') ?? DEFAULT_IDENTITY.name,
        email: envValue(context.env, 'GLIDEPATH_GIT_EMAIL') ?? DEFAULT_IDENTITY.email,
      },
    });
    for (const line of formatPullRequestResult(result)) context.print(line);
    return 'done';
  },
});
