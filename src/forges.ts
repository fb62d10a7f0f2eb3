/**
 * What glidepath knows of each forge it opens changes on, one descriptor per provider: the config schema, the
 * commands, the clients, the messages and the docs' token lists read it here.
 */

export const FORGE_NAMES = ['github', 'gitlab', 'gitea'] as const;
export type ForgeName = (typeof FORGE_NAMES)[number];

export interface Forge {
  readonly provider: ForgeName;
  /** How messages name the forge. */
  readonly title: 'GitHub' | 'GitLab' | 'Gitea';
  /** The servers the provider speaks to, when more than its own. */
  readonly servers?: string;
  /** The environment variable that holds its token. */
  readonly tokenVariable: 'GITHUB_TOKEN' | 'GITLAB_TOKEN' | 'GITEA_TOKEN';
  /** What `pr` needs of the token, for a message. */
  readonly tokenNeeds: string;
  /** The Basic user name git sends the token with over https. */
  readonly gitUser: 'x-access-token' | 'oauth2';
  /** How the forge names a change (`pull request`), and what goes before its number (`#12`, `!12`). */
  readonly change: { readonly noun: 'pull request' | 'merge request'; readonly sigil: '#' | '!' };
  /** How it names a repository, and the shape of its path for --remote-path. */
  readonly repository: { readonly noun: 'repository' | 'project'; readonly path: 'OWNER/NAME' | 'GROUP/NAME' };
  /** Its API on a host of its own, under the host's web root. */
  readonly apiPath: '/api/v3' | '/api/v4' | '/api/v1';
  /** An API address, for a fix. */
  readonly apiExample: string;
  /** What to pass when the API cannot be told. */
  readonly apiUrlFix: string;
}

/** The scopes `pr` needs of a Gitea token: pull requests are in the repository category, labels in the issue one. */
export const GITEA_TOKEN_SCOPES = 'write:repository,read:issue';

export const FORGES: { readonly [name in ForgeName]: Forge & { readonly provider: name } } = {
  github: {
    provider: 'github',
    title: 'GitHub',
    tokenVariable: 'GITHUB_TOKEN',
    tokenNeeds: 'Contents and Pull requests: read and write',
    gitUser: 'x-access-token',
    change: { noun: 'pull request', sigil: '#' },
    repository: { noun: 'repository', path: 'OWNER/NAME' },
    apiPath: '/api/v3',
    apiExample: 'https://api.github.com',
    apiUrlFix:
      'pass --api-url (https://api.github.com for github.com, https://<host>/api/v3 for GitHub Enterprise) or ' +
      'set GITHUB_API_URL',
  },
  gitlab: {
    provider: 'gitlab',
    title: 'GitLab',
    tokenVariable: 'GITLAB_TOKEN',
    tokenNeeds: 'the api scope',
    gitUser: 'oauth2',
    change: { noun: 'merge request', sigil: '!' },
    repository: { noun: 'project', path: 'GROUP/NAME' },
    apiPath: '/api/v4',
    apiExample: 'https://gitlab.com/api/v4',
    apiUrlFix: 'pass --api-url (https://gitlab.com/api/v4, or https://<host>/api/v4 for a self-managed GitLab)',
  },
  gitea: {
    provider: 'gitea',
    title: 'Gitea',
    servers: 'Gitea or Forgejo',
    tokenVariable: 'GITEA_TOKEN',
    tokenNeeds: `the ${GITEA_TOKEN_SCOPES} scopes`,
    // Gitea reads the password as the token, whatever the user.
    gitUser: 'x-access-token',
    change: { noun: 'pull request', sigil: '#' },
    repository: { noun: 'repository', path: 'OWNER/NAME' },
    apiPath: '/api/v1',
    apiExample: 'https://<host>/api/v1',
    apiUrlFix: 'pass --api-url (https://<host>/api/v1 for Gitea or Forgejo)',
  },
};

/** The providers a cluster file may name, as a schema's message lists them: `github, gitlab, gitea or none`. */
export const PROVIDER_CHOICES = `${FORGE_NAMES.join(', ')} or none`;

/** What each provider opens, for the schema: `` `github` (pull request), ... `` */
export function providerOpens(): string {
  return FORGE_NAMES.map((name) => {
    const { change, servers } = FORGES[name];
    return `\`${name}\` (${change.noun}${servers === undefined ? '' : `, ${servers}`})`;
  }).join(', ');
}

/** Every forge's token variable: `GITHUB_TOKEN, GITLAB_TOKEN or GITEA_TOKEN` (`joiner` `and` for a list of all). */
export function tokenVariables(joiner: 'or' | 'and' = 'or'): string {
  const names = FORGE_NAMES.map((name) => FORGES[name].tokenVariable);
  return `${names.slice(0, -1).join(', ')} ${joiner} ${names.at(-1)!}`;
}
