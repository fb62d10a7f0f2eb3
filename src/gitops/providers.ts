/** Which provider ships a cluster, its API address and repository path, and the token it takes. */
import { GitopsError } from './errors';
import { GIT_USER } from './redact';
import { hostName, webRoot, type RemoteUrl } from './remote';
import { PROVIDERS, type ProviderName } from './change-host';

/** github.com and gitlab.com tell their provider; any other host needs gitops.provider or --provider. */
export function inferProvider(remote: RemoteUrl): ProviderName | undefined {
  const host = hostName(remote);
  if (host === 'github.com' || host === 'www.github.com') return 'github';
  if (host === 'gitlab.com' || host === 'www.gitlab.com') return 'gitlab';
  return undefined;
}

export function chooseProvider(remote: RemoteUrl, configured: ProviderName | undefined, override: ProviderName | undefined, shown: string): ProviderName {
  const provider = override ?? configured ?? inferProvider(remote);
  if (provider === undefined) {
    throw new GitopsError(
      'input',
      `cannot tell which host serves the gitops repo ${shown}: only github.com and gitlab.com are recognised`,
      `set gitops.provider in the cluster file (${PROVIDERS.join(', ')}), or pass --provider; none pushes the branch and prints what to open by hand`,
    );
  }
  return provider;
}

export function parseProvider(value: string): ProviderName {
  const provider = PROVIDERS.find((p) => p === value.trim().toLowerCase());
  if (provider === undefined) throw new GitopsError('input', `--provider ${JSON.stringify(value)} is not one of ${PROVIDERS.join(', ')}`, 'e.g. --provider gitlab');
  return provider;
}

/** github.com's API, GitHub Enterprise Server's `https://<host>/api/v3`, or GitLab's `https://<host>/api/v4`. */
export function defaultApiUrl(remote: RemoteUrl, provider: ProviderName): string | undefined {
  const host = hostName(remote);
  const root = webRoot(remote);
  if (host === undefined || root === undefined || provider === 'none') return undefined;
  if (provider === 'github') return host === 'github.com' || host === 'www.github.com' ? 'https://api.github.com' : `${root}/api/v3`;
  return `${root}/api/v4`;
}

/** The environment variable that holds a provider's token; `none` takes none (git's own credentials do). */
export function tokenVariable(provider: ProviderName): 'GITHUB_TOKEN' | 'GITLAB_TOKEN' | undefined {
  return provider === 'github' ? 'GITHUB_TOKEN' : provider === 'gitlab' ? 'GITLAB_TOKEN' : undefined;
}

/** The provider's token from `tokens`; an empty one counts as none. */
export function providerToken(provider: ProviderName, tokens: { readonly github?: string; readonly gitlab?: string } | undefined): string | undefined {
  const given = provider === 'github' ? tokens?.github : provider === 'gitlab' ? tokens?.gitlab : undefined;
  return given === '' ? undefined : given;
}

/** The Basic user name git sends the token with over https: GitHub's `x-access-token`, GitLab's `oauth2`. */
export function gitUserFor(provider: ProviderName): string {
  return provider === 'gitlab' ? GIT_USER.gitlab : GIT_USER.github;
}
