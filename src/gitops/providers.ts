/** Which provider ships a cluster, its API address and repository path, and the token it takes. */
import type { KnownSecret } from '../config/environment-secrets';
import { shownArgument } from '../config/shown-input';
import { GitopsError } from './errors';
import { FORGES } from '../forges';
import { hostName, webRoot, type RemoteUrl } from './remote';
import { PROVIDERS, type ProviderName } from './change-host';

/**
 * github.com, gitlab.com, gitea.com and codeberg.org (Forgejo), and their subdomains, tell their provider; any other
 * host needs gitops.provider or --provider.
 */
export function inferProvider(remote: RemoteUrl): ProviderName | undefined {
  const host = hostName(remote);
  return host === undefined ? undefined : domainOwner(host)?.provider;
}

/**
 * The remote's host as inferProvider reads it: `www.github.com` and `github.com.` (the DNS root's trailing dot, which
 * git and curl accept) are github.com.
 */
function publicHost(remote: RemoteUrl): string | undefined {
  const host = hostName(remote);
  return host === undefined ? undefined : bareHost(host);
}

function bareHost(host: string): string {
  return host.replace(/\.+$/, '').replace(/^www\./, '');
}

/** Each provider's own domains: the host and every subdomain of it (api.github.com, gist.github.com) is theirs. */
const PROVIDER_DOMAINS: Readonly<Record<string, Exclude<ProviderName, 'none'>>> = {
  'github.com': 'github',
  // GitHub Enterprise Cloud with data residency: <name>.ghe.com, its API at api.<name>.ghe.com.
  'ghe.com': 'github',
  'gitlab.com': 'gitlab',
  'gitea.com': 'gitea',
  'codeberg.org': 'gitea',
};

/** The provider that owns a host's domain, if it is one of the public ones. */
function domainOwner(host: string): { provider: Exclude<ProviderName, 'none'>; domain: string } | undefined {
  const labels = bareHost(host).split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const domain = labels.slice(i).join('.');
    const provider = PROVIDER_DOMAINS[domain];
    if (provider !== undefined) return { provider, domain };
  }
  return undefined;
}

export function chooseProvider(
  remote: RemoteUrl,
  configured: ProviderName | undefined,
  override: ProviderName | undefined,
  shown: string,
): ProviderName {
  const provider = override ?? configured ?? inferProvider(remote);
  if (provider === undefined) {
    throw new GitopsError(
      'input',
      `cannot tell which host serves the gitops repo ${shown}: only github.com, gitlab.com, gitea.com and ` +
        `codeberg.org are recognised`,
      `set gitops.provider in the cluster file (${PROVIDERS.join(', ')}), or pass --provider; none pushes the ` +
        `branch and prints what to open by hand`,
    );
  }
  return provider;
}

/**
 * Refuses a provider given for a host that tells another (github for gitlab.com): its token would go to that host,
 * since git sends it to the remote's host. `none` sends none.
 */
export function refuseMismatchedProvider(
  remote: RemoteUrl,
  configured: ProviderName | undefined,
  override: ProviderName | undefined,
  shown: string,
  overrideOption = '--provider',
): void {
  const given = override ?? configured;
  const hosted = inferProvider(remote);
  if (given === undefined || given === 'none' || hosted === undefined || given === hosted) return;
  const shownHost = publicHost(remote);
  const configuredToo =
    configured !== undefined && configured !== 'none' && configured !== hosted
      ? ` (and set gitops.provider to ${hosted}: it says ${configured})`
      : '';
  throw new GitopsError(
    'input',
    `the gitops repo ${shown} is on ${shownHost}, a ${hosted} host, but the provider is ${given}` +
      (override !== undefined ? ` (${overrideOption})` : ' (gitops.provider)') +
      `: ${TOKEN_VARIABLES[given]} would be sent to ${shownHost}`,
    override === undefined
      ? `set gitops.provider to ${hosted} in the cluster file, or remove it: ${shownHost} tells its provider`
      : overrideOption === '--provider'
        ? `pass --provider ${hosted}, or leave --provider out: ${shownHost} tells its provider${configuredToo}`
        : `leave ${overrideOption} out (it is for GitHub); ${shownHost} tells its provider${configuredToo}`,
  );
}

/**
 * Refuses an API address on another provider's domain (--api-url https://gitlab.com/api/v4 with provider github):
 * the provider's token goes with every request to it. `from` names where the address came from.
 */
export function refuseMismatchedApi(apiUrl: string, provider: ProviderName, from: string): void {
  if (provider === 'none') return;
  const owner = domainOwner(apiHost(apiUrl, from, provider));
  if (owner === undefined || owner.provider === provider) return;
  throw new GitopsError(
    'input',
    `${from} is on ${owner.domain}, a ${owner.provider} host, but the provider is ${provider}: ` +
      `${TOKEN_VARIABLES[provider]} would be sent to ${owner.domain}`,
    `give ${from} the ${provider} API of the gitops repo's host, or leave it out for the default`,
  );
}

/** `known`: the secrets of the environment, masked in the message. */
export function parseProvider(value: string, known: readonly KnownSecret[] = []): ProviderName {
  const provider = PROVIDERS.find((p) => p === value.trim().toLowerCase());
  if (provider === undefined)
    throw new GitopsError(
      'input',
      `--provider ${shownArgument(value, known)} is not one of ${PROVIDERS.join(', ')}`,
      'e.g. --provider gitlab',
    );
  return provider;
}

/**
 * The API of the remote's host: github.com's (for every github.com host), `api.<name>.ghe.com`, gitlab.com's,
 * gitea.com's or codeberg.org's; otherwise GitHub Enterprise Server's `https://<host>/api/v3`, GitLab's
 * `https://<host>/api/v4`, or Gitea's `https://<host>/api/v1`.
 */
export function defaultApiUrl(remote: RemoteUrl, provider: ProviderName): string | undefined {
  const host = hostName(remote);
  const root = webRoot(remote);
  if (host === undefined || root === undefined || provider === 'none') return undefined;
  // A provider's own hosts (ssh.github.com, altssh.gitlab.com) share its one API.
  const owner = domainOwner(host);
  if (owner?.provider === provider) {
    if (owner.domain === 'github.com') return 'https://api.github.com';
    if (owner.domain === 'ghe.com') return `https://api.${bareHost(host)}`;
    return `https://${owner.domain}${FORGES[provider].apiPath}`;
  }
  return `${root}${FORGES[provider].apiPath}`;
}

/**
 * GITHUB_API_URL when it is the API of the remote's own host; GitHub Actions sets it on every job to the API of the
 * GitHub the workflow runs on, which may be another than the gitops repo's (a GitHub Enterprise repo shipped from
 * github.com). Another host's is left out, with a note: the token of the repo's host would go there.
 */
export function githubApiUrlFor(
  remote: RemoteUrl,
  githubApiUrl: string | undefined,
  notes: string[],
): string | undefined {
  const host = hostName(remote);
  if (githubApiUrl === undefined || host === undefined) return githubApiUrl;
  const apiHostName = apiHost(githubApiUrl, 'GITHUB_API_URL', 'github');
  const bare = bareHost(host);
  const apiBare = bareHost(apiHostName);
  const bothGithubCom = domainOwner(host)?.domain === 'github.com' && domainOwner(apiHostName)?.domain === 'github.com';
  if (bothGithubCom || apiBare === bare || apiBare === `api.${bare}`) return githubApiUrl;
  notes.push(
    `GITHUB_API_URL (${apiHostName}) is not the API of the gitops repo's host ${host}: it is left out, and the API ` +
      `of ${host} is used (pass --api-url to name another)`,
  );
  return undefined;
}

/** The host of an API address, as fetch reaches it; `from` names the option or variable that gave it. */
function apiHost(apiUrl: string, from: string, provider: Exclude<ProviderName, 'none'>): string {
  try {
    return new URL(apiUrl.trim()).hostname;
  } catch {
    throw new GitopsError(
      'input',
      `${from} is not a URL`,
      `give the API's https:// address, e.g. ${FORGES[provider].apiExample}`,
    );
  }
}

/** The environment variable that holds a provider's token; `none` takes none (git's own credentials do). */
export function tokenVariable(provider: ProviderName): 'GITHUB_TOKEN' | 'GITLAB_TOKEN' | 'GITEA_TOKEN' | undefined {
  return provider === 'none' ? undefined : TOKEN_VARIABLES[provider];
}

/** Each provider's token variable, and its key in the run's `tokens`. */
export const TOKEN_VARIABLES = {
  github: FORGES.github.tokenVariable,
  gitlab: FORGES.gitlab.tokenVariable,
  gitea: FORGES.gitea.tokenVariable,
} as const;
export type ProviderTokens = { readonly [provider in keyof typeof TOKEN_VARIABLES]?: string };

/**
 * The secrets a run masks wherever it shows text: the environment's (`knownSecrets`, from the command line) and the
 * provider tokens it was given, each named by its variable.
 */
export function runSecrets(settings: {
  readonly tokens?: ProviderTokens | undefined;
  readonly knownSecrets?: readonly KnownSecret[] | undefined;
}): KnownSecret[] {
  const tokens = Object.entries(TOKEN_VARIABLES).flatMap(([provider, name]) => {
    const value = settings.tokens?.[provider as keyof ProviderTokens];
    return value === undefined || value === '' ? [] : [{ name, value }];
  });
  return [...(settings.knownSecrets ?? []), ...tokens];
}

/** The provider's token from `tokens`; an empty one counts as none. */
export function providerToken(provider: ProviderName, tokens: ProviderTokens | undefined): string | undefined {
  const given = provider === 'none' ? undefined : tokens?.[provider];
  return given === '' ? undefined : given;
}

/** The token git sends for `provider`, with its variable and user name, when the environment gives one. */
export function gitCredentials(
  provider: ProviderName,
  tokens: ProviderTokens | undefined,
): { token: string; tokenUser: string; tokenVariable: string } | undefined {
  const variable = tokenVariable(provider);
  const token = providerToken(provider, tokens);
  return variable === undefined || token === undefined
    ? undefined
    : { token, tokenUser: gitUserFor(provider), tokenVariable: variable };
}

/**
 * The Basic user name git sends the token with over https: GitHub's `x-access-token` (which Gitea takes too: any name
 * with the token as password), GitLab's `oauth2`.
 */
export function gitUserFor(provider: ProviderName): string {
  return FORGES[provider === 'none' ? 'github' : provider].gitUser;
}
