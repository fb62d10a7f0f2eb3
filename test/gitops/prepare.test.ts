/**
 * What is refused before any git or API work (prepareCluster): a folder that escapes the repository, a missing or
 * malformed token, a token that would travel over plain http. No git runs.
 */
import { describe, expect, it } from 'vitest';
import { GitopsError } from '../../src/gitops/errors';
import { prepareCluster } from '../../src/gitops/ship-prepare';
import type { ShipSettings } from '../../src/gitops/ship-types';
import { TOKEN, prodConfig, rendered } from './helpers/fixture';

const REPO = 'https://github.test/hangar-io/cluster-gitops.git';
const SETTINGS: ShipSettings = {
  provider: 'github',
  tokens: { github: TOKEN },
  apiUrl: 'https://api.github.test',
  remotePath: { owner: 'hangar-io', name: 'cluster-gitops' },
};

function refusal(settings: ShipSettings, path?: string, repo = REPO): GitopsError {
  const config = prodConfig({}, repo);
  const withPath = path === undefined ? config : { ...config, gitops: { ...config.gitops, path } };
  try {
    prepareCluster({ config: withPath, files: rendered(config) }, settings);
  } catch (error) {
    expect(error).toBeInstanceOf(GitopsError);
    expect(`${(error as GitopsError).message} ${(error as GitopsError).fix}`).not.toContain(TOKEN);
    return error as GitopsError;
  }
  throw new Error('prepareCluster accepted it');
}

describe('refused before anything is fetched', () => {
  it.each([
    ['../outside', /has an empty, "\." or "\.\." segment/],
    ['clusters/../../etc', /segment/],
    ['/etc/glidepath', /is absolute/],
    ['.git/hooks', /points into \.git/],
    ['', /is empty/],
  ])('a gitops path that escapes the repo (%j)', (path, why) => {
    const error = refusal(SETTINGS, path);
    expect(error.kind).toBe('path-escape');
    expect(error.badInput).toBe(true);
    expect(error.message).toMatch(why);
  });

  it('no token: refused up front; a dry run goes on without one, saying what it did not check', () => {
    const error = refusal({ ...SETTINGS, tokens: {} });
    expect(error).toMatchObject({ kind: 'input' });
    expect(error.message).toBe('GITHUB_TOKEN is not set: it is needed to push the branch and open the pull request');
    const config = prodConfig({}, REPO);
    const dry = prepareCluster({ config, files: rendered(config) }, { ...SETTINGS, tokens: {}, dryRun: true });
    expect(dry.notes[0]).toMatch(/^GITHUB_TOKEN is not set: open pull requests were not checked/);
  });

  it('a token holding a newline: says what is wrong with it', () => {
    const error = refusal({ ...SETTINGS, tokens: { github: `${TOKEN}\n` } });
    expect(error).toMatchObject({ kind: 'input' });
    expect(error.message).toMatch(/^GITHUB_TOKEN holds a line break \(at character \d+ of \d+\): a token is one line/);
  });

  it('a token is not sent to an http:// API or remote unless --allow-insecure-http', () => {
    const api = refusal({ ...SETTINGS, apiUrl: 'http://127.0.0.1:9' });
    expect(api.message).toMatch(
      /the GitHub API http:\/\/127\.0\.0\.1:9 is plain http:\/\/: GITHUB_TOKEN would travel in clear text/,
    );
    expect(api.fix).toMatch(/--allow-insecure-http/);
    // The URL parser reads both as http://127.0.0.1:9, and fetch sent the token there.
    for (const apiUrl of ['http:/127.0.0.1:9/api/v3', ' http://127.0.0.1:9/api/v3', 'HTTP:\\127.0.0.1:9'])
      expect(refusal({ ...SETTINGS, apiUrl }).message).toMatch(/is plain http:\/\/: GITHUB_TOKEN would travel/);
    const remote = refusal(SETTINGS, undefined, 'http://127.0.0.1:9/a/b.git');
    expect(remote.message).toMatch(/the gitops repo http:\/\/127\.0\.0\.1:9\/a\/b\.git is plain http:\/\//);
    const config = prodConfig({}, 'http://127.0.0.1:9/a/b.git');
    const insecure = { ...SETTINGS, apiUrl: 'http://127.0.0.1:9', allowInsecureHttp: true };
    expect(prepareCluster({ config, files: rendered(config) }, insecure).token).toBe(TOKEN);
  });
});
