import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json';
import { changeBody, commitMessage } from '../../src/gitops/change-text';
import { GitopsError } from '../../src/gitops/errors';
import { ownedFolder } from '../../src/gitops/folder';
import { GITHUB_BODY_LIMIT, renderReviewMarkdown, summaryLine } from '../../src/gitops/markdown';
import { basicCredentials, redact, secretForms } from '../../src/gitops/redact';
import { defaultApiUrl, inferProvider } from '../../src/gitops/providers';
import { prepareCluster } from '../../src/gitops/ship-prepare';
import { diffAgainstGitops } from '../../src/gitops/diff';
import { prodConfig, rendered } from './helpers/fixture';
import { parseRemote, parseRepoPath, tokenScope } from '../../src/gitops/remote';
import { reviewChanges } from '../../src/gitops/review';
import { aliasBombYaml } from '../helpers/alias-bomb';

describe('parseRemote', () => {
  it.each([
    ['https://github.com/hangar-io/cluster-gitops.git', 'https', 'github.com', 'https://api.github.com'],
    ['https://github.com/hangar-io/cluster-gitops', 'https', 'github.com', 'https://api.github.com'],
    ['git@github.com:hangar-io/cluster-gitops.git', 'ssh', 'github.com', 'https://api.github.com'],
    ['ssh://git@github.com/hangar-io/cluster-gitops.git', 'ssh', 'github.com', 'https://api.github.com'],
    [
      'ssh://git@ghe.corp.example:2222/hangar-io/cluster-gitops.git',
      'ssh',
      'ghe.corp.example:2222',
      'https://ghe.corp.example/api/v3',
    ],
    [
      'https://ghe.corp.example/hangar-io/cluster-gitops.git',
      'https',
      'ghe.corp.example',
      'https://ghe.corp.example/api/v3',
    ],
  ])('%s', (url, protocol, host, api) => {
    const remote = parseRemote(url);
    expect(remote).toMatchObject({ url, protocol, host, path: { owner: 'hangar-io', name: 'cluster-gitops' } });
    expect(defaultApiUrl(remote, 'github')).toBe(api);
  });

  it('a path becomes absolute and has no GitHub repository', () => {
    expect(parseRemote('../gitops', '/work/main')).toEqual({ url: '/work/gitops', protocol: 'file' });
  });

  it('the token header is limited to the https host; ssh remotes get none', () => {
    expect(tokenScope(parseRemote('https://github.com/a/b.git'))).toBe('https://github.com/a/b.git');
    expect(tokenScope(parseRemote('https://me@git.example:8443/g/s/b'))).toBe('https://git.example:8443/g/s/b');
    expect(tokenScope(parseRemote('git@github.com:a/b.git'))).toBeUndefined();
  });

  it.each([
    ['https://x-access-token:ghp_secret@github.com/a/b.git', /contains a password or token/],
    ['ext::sh -c touch% /tmp/pwned', /transport glidepath does not allow/],
    ['--upload-pack=touch /tmp/pwned', /not a repository URL/],
    ['ftp://example.com/a/b.git', /not supported/],
  ])('refuses %s', (url, message) => {
    expect(() => parseRemote(url)).toThrow(message);
  });

  it.each([
    'https://x:secretpassword@example.com:notaport/a/b.git',
    'ftp://deploy:secretpassword@example.com/a/b.git',
    'ext::https://deploy:secretpassword@example.com/a/b.git',
  ])('refuses %s without printing the password (it printed the whole value)', (url) => {
    expect(() => parseRemote(url)).toThrow(/a value that looks like a URL with a password in it/);
    expect(() => parseRemote(url)).not.toThrow(/secretpassword/);
  });

  it('the fix for credentials in the URL names every provider token, GITEA_TOKEN too', () => {
    const refused = (() => {
      try {
        parseRemote('https://x-access-token:ghp_secret@gitea.example.com/a/b.git');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(GitopsError);
    expect((refused as GitopsError).fix).toContain('(GITHUB_TOKEN, GITLAB_TOKEN or GITEA_TOKEN)');
  });

  it('--remote-path', () => {
    expect(parseRepoPath('hangar-io/cluster-gitops.git')).toEqual({ owner: 'hangar-io', name: 'cluster-gitops' });
    expect(parseRepoPath('platform/k8s/cluster-gitops')).toEqual({ owner: 'platform/k8s', name: 'cluster-gitops' });
    expect(() => parseRepoPath('just-a-name')).toThrow(GitopsError);
  });
});

describe('ownedFolder', () => {
  it('normalises a trailing slash and accepts nested folders', () => {
    expect(ownedFolder('clusters/prod/glidepath/')).toBe('clusters/prod/glidepath');
  });
  it.each(['..', 'a/../b', './a', '/abs', 'C:/x', 'a\\b', 'a//b', '.git', 'x/.GIT/y', ''])('refuses %j', (path) => {
    expect(() => ownedFolder(path)).toThrow(GitopsError);
  });
});

describe('redact', () => {
  it('removes the token, its Basic form, URL credentials and authorization headers', () => {
    const token = 'ghs_abc123';
    const text =
      `token ${token}; header ${basicCredentials(token)}; https://user:pw@github.com/a; Authorization: Bearer ` + `zzz`;
    const out = redact(text, secretForms(token));
    expect(out).toBe('token ***; header ***; https://***@github.com/a; Authorization: Bearer ***');
  });
});

describe('review and Markdown', () => {
  const cm = (name: string, data: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ns\ndata:\n  k: ${data}\n`;

  it('masks in the diff what looks like a secret, such as a token the base holds in a comment', () => {
    const token = 'ghp_' + 'Zq7Lm2Xc9Vb4Nk8Hj3Gf6Ds1Aw5Er0Ty2Ua1';
    const basic = Buffer.from('deploy:hunter2hunter2').toString('base64');
    const before = [{ path: 'a.k8s.yaml', content: `${cm('one', 'x')}# token: ${token}\n# auth: Basic ${basic}\n` }];
    const review = reviewChanges('f', before, [{ path: 'a.k8s.yaml', content: cm('one', 'y') }]);
    const patch = review.files[0]!.patch;
    expect(patch).toContain('-# token: ghp_… 40 characters\n');
    expect(patch).toContain(`-# auth: Basic … ${basic.length} characters\n`);
    expect(patch).not.toContain(token.slice(4));
    expect(patch).toMatch(/^- {2}k: x\n(?:-.*\n)*\+ {2}k: y$/m);
  });

  it("masks the environment's secrets the base holds, which only their value tells apart", () => {
    const known = [{ name: 'GITHUB_TOKEN', value: 'correct-horse-battery-staple' }];
    const before = [{ path: 'a.k8s.yaml', content: cm('one', 'correct-horse-battery-staple') }];
    const review = reviewChanges('f', before, [{ path: 'a.k8s.yaml', content: cm('one', 'y') }], false, known);
    expect(review.files[0]!.patch).toContain('-  k: … 28 characters\n');
    expect(review.files[0]!.patch).not.toContain('horse');
  });

  it('shows the control characters of removed lines as ?: a terminal escape in the base would clear the screen', () => {
    const before = [{ path: 'a.k8s.yaml', content: `${cm('one', 'x')}# \u001b]0;title\u0007\u001b[2J\tend\r\n` }];
    const review = reviewChanges('f', before, [{ path: 'a.k8s.yaml', content: cm('one', 'y') }]);
    expect(review.files[0]!.patch).toContain('-# ?]0;title??[2J\tend?\n');
  });

  it('compares objects by kind/namespace/name, whatever file or key order they are in', () => {
    const before = [
      { path: 'a.k8s.yaml', content: `${cm('one', 'x')}---\n${cm('two', 'x')}` },
      { path: 'b.k8s.yaml', content: cm('gone', 'x') },
    ];
    const after = [
      { path: 'a.k8s.yaml', content: cm('one', 'x') },
      {
        path: 'c.k8s.yaml',
        content: `kind: ConfigMap\ndata:\n  k: y\nmetadata:\n  namespace: ns\n  name: two\napiVersion: v1\n`,
      },
      { path: 'd.k8s.yaml', content: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: fresh\n' },
    ];
    const review = reviewChanges('f', before, after);
    expect(review.objects).toEqual([
      { change: 'added', kind: 'Namespace', name: 'fresh' },
      { change: 'changed', kind: 'ConfigMap', namespace: 'ns', name: 'two' },
      { change: 'removed', kind: 'ConfigMap', namespace: 'ns', name: 'gone' },
    ]);
    expect(review.files.map((f) => `${f.change} ${f.path}`)).toEqual([
      'changed a.k8s.yaml',
      'removed b.k8s.yaml',
      'added c.k8s.yaml',
      'added d.k8s.yaml',
    ]);
    expect(summaryLine(review)).toBe('1 added, 1 changed, 1 removed');
  });

  it('a file that is not valid YAML is compared as text, with a warning', () => {
    const review = reviewChanges('f', [{ path: 'x.yaml', content: 'a: [' }], [{ path: 'x.yaml', content: 'a: 1\n' }]);
    expect(review.warnings[0]).toMatch(/x\.yaml \(in the gitops repo\) is not valid YAML/);
    expect(review.objects).toEqual([{ change: 'added', kind: '(not a Kubernetes object)', name: 'x.yaml#1' }]);
  });

  it('a YAML alias bomb in the base is compared as text, with a warning that names it, never a crash', () => {
    const bomb = aliasBombYaml();
    const review = reviewChanges(
      'f',
      [{ path: 'kustomization.yaml', content: bomb }],
      [{ path: 'kustomization.yaml', content: 'resources: []\n' }],
    );
    expect(review.warnings).toEqual([
      'kustomization.yaml (in the gitops repo) is not valid YAML (its aliases expand too far, as in an alias bomb ' +
        '(Excessive alias count indicates a resource exhaustion attack)): compared as text only',
    ]);
    expect(review.files.map((f) => `${f.change} ${f.path}`)).toEqual(['changed kustomization.yaml']);
  });

  it('a code fence longer than every backtick run, for 200,000 runs of them (a comment in the base)', () => {
    const comment = `# ${'` '.repeat(199_999)}\`\`\`\`\`\n`;
    const review = reviewChanges(
      'f',
      [{ path: 'kustomization.yaml', content: `resources: []\n${comment}` }],
      [{ path: 'kustomization.yaml', content: 'resources: []\n' }],
    );
    const body = renderReviewMarkdown(review, { heading: 'h', maxChars: 10_000_000 });
    expect(body).toContain('\n``````diff\n');
    expect(body).toMatch(/\n``````\n\n<\/details>\n$/);
  });

  it('parses only the files whose text changed: an unchanged file is neither read nor warned about', () => {
    const unchanged = [
      { path: 'broken.yaml', content: 'a: [' },
      { path: 'same.yaml', content: cm('same', 'x') },
    ];
    const review = reviewChanges(
      'f',
      [...unchanged, { path: 'a.yaml', content: cm('one', 'x') }],
      [...unchanged, { path: 'a.yaml', content: cm('one', 'y') }],
    );
    expect(review.warnings).toEqual([]);
    expect(review.objects).toEqual([{ change: 'changed', kind: 'ConfigMap', namespace: 'ns', name: 'one' }]);
    expect(review.files.map((file) => file.path)).toEqual(['a.yaml']);
  });

  it('a change that moves no object (a comment, key order) is a reformat', () => {
    const review = reviewChanges(
      'f',
      [{ path: 'a.yaml', content: cm('one', 'x') }],
      [{ path: 'a.yaml', content: `# generated\n${cm('one', 'x')}` }],
    );
    expect(review.objects).toEqual([]);
    expect(summaryLine(review)).toBe('1 file reformatted');
  });

  it('a diff too long for a pull request body is cut at a line, with a note, under the limit', () => {
    // Long lines rather than many keys: the yaml library checks a map's keys pairwise, so 2,500 keys took 0.17 s.
    const big = Array.from({ length: 800 }, (_v, i) => `  key${i}: value-${i}-${'x'.repeat(80)}`).join('\n');
    const review = reviewChanges(
      'f',
      [],
      [{ path: 'big.k8s.yaml', content: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${big}\n` }],
    );
    const body = renderReviewMarkdown(review, { heading: 'h', fullDiffCommand: 'npm run diff -- --cluster prod' });
    expect(body.length).toBeLessThanOrEqual(GITHUB_BODY_LIMIT);
    expect(body).toMatch(
      /_The diff was cut to fit: \d+ of 8\d\d lines are not shown\. Run `npm run diff -- --cluster prod` to see all of it\._\n\n<\/details>\n$/,
    );
    expect(body).toContain('| added | ConfigMap | - | big |');
    const fenced = body.split('\n').filter((l) => l === '```' || l === '```diff');
    expect(fenced).toEqual(['```diff', '```']);
  });

  it('a diff that fits is whole, in a collapsed block', () => {
    const review = reviewChanges(
      'f',
      [{ path: 'a.yaml', content: cm('one', 'x') }],
      [{ path: 'a.yaml', content: cm('one', 'y') }],
    );
    const body = renderReviewMarkdown(review, { heading: 'h' });
    expect(body).toContain(
      '<details><summary>YAML diff (1 file)</summary>\n\n```diff\n--- a/f/a.yaml\n+++ b/f/a.yaml\n@@ -4,4 ' +
        '+4,4 @@\n   name: one\n   namespace: ns\n data:\n-  k: x\n+  k: y\n```\n\n</details>\n',
    );
  });
});

/** prod rendered, with its gitops repo at `repo` and, when given, its gitops.provider. */
const clusterAt = (repo: string, provider?: 'github' | 'gitlab' | 'gitea' | 'none') => {
  const config = prodConfig({}, repo);
  const configured = { ...config, gitops: { ...config.gitops, ...(provider ? { provider } : {}) } };
  return { config: configured, files: rendered(config) };
};

describe('GITHUB_API_URL', () => {
  // GitHub Actions sets it on every job: it sent a GitLab or Gitea token to api.github.com.
  it.each([
    ['gitea', 'https://git.example.com/o/r.git', 'https://api.github.com', 'https://git.example.com/api/v1'],
    ['gitlab', 'https://git.example.com/o/r.git', 'https://api.github.com', 'https://git.example.com/api/v4'],
    ['github', 'https://github.com/o/r.git', 'https://api.github.com', 'https://api.github.com'],
    ['github', 'git@ghe.example.com:o/r.git', 'https://ghe.example.com/api/v3', 'https://ghe.example.com/api/v3'],
    // A GitHub Enterprise repo shipped from github.com's Actions: the GHE token went to api.github.com.
    ['github', 'git@ghe.example.com:o/r.git', 'https://api.github.com', 'https://ghe.example.com/api/v3'],
    // And the reverse: a github.com repo shipped from a GitHub Enterprise's Actions.
    ['github', 'https://github.com/o/r.git', 'https://ghe.example.com/api/v3', 'https://api.github.com'],
  ] as const)(
    'applies to github clusters on the host it serves only (%s, %s, GITHUB_API_URL %s)',
    (provider, repo, githubApiUrl, api) => {
      const prepared = prepareCluster(clusterAt(repo), {
        provider,
        githubApiUrl,
        tokens: { github: 't', gitlab: 't', gitea: 't' },
      });
      expect(prepared.apiUrl).toBe(api);
      const leftOut = provider === 'github' && githubApiUrl !== api;
      expect(
        prepared.notes.some((n) => /^GITHUB_API_URL \(\S+\) is not the API of the gitops repo's host/.test(n)),
      ).toBe(leftOut);
    },
  );
});

describe('a provider that the host contradicts', () => {
  // git sends the token to the remote's host: GITHUB_TOKEN went to gitlab.com with provider github.
  const TOKENS = { github: 'ghp-token', gitlab: 'glpat-token', gitea: 'gitea-token' };

  it.each([
    ['github', 'https://gitlab.com/acme/gitops.git', 'gitlab.com, a gitlab host', 'GITHUB_TOKEN'],
    ['gitlab', 'git@github.com:acme/gitops.git', 'github.com, a github host', 'GITLAB_TOKEN'],
    ['gitea', 'https://www.github.com/acme/gitops.git', 'github.com, a github host', 'GITEA_TOKEN'],
    ['github', 'https://codeberg.org/acme/gitops.git', 'codeberg.org, a gitea host', 'GITHUB_TOKEN'],
    // git and curl take the DNS root's trailing dot: gitlab.com. is gitlab.com.
    ['github', 'https://gitlab.com./acme/gitops.git', 'gitlab.com, a gitlab host', 'GITHUB_TOKEN'],
    ['gitlab', 'https://gist.github.com/acme/gitops.git', 'gist.github.com, a github host', 'GITLAB_TOKEN'],
    // git decodes an ssh:// URL's host, and so does the URL parser of the API address built from it.
    ['github', 'ssh://git@gitlab%2ecom/acme/gitops.git', 'gitlab.com, a gitlab host', 'GITHUB_TOKEN'],
    ['gitlab', 'git@ｇｉｔｈｕｂ.com:acme/gitops.git', 'github.com, a github host', 'GITLAB_TOKEN'],
    ['gitlab', 'https://acme.ghe.com/acme/gitops.git', 'acme.ghe.com, a github host', 'GITLAB_TOKEN'],
  ] as const)(
    'gitops.provider %s for %s: pr and diff refuse it (exit 2), naming the token',
    async (given, repo, on, token) => {
      const message = new RegExp(
        `is on ${on.replace(/\./g, '\\.')}, but the provider is ${given} \\(gitops\\.provider\\): ${token}`,
      );
      for (const dryRun of [false, true]) {
        let error: unknown;
        try {
          prepareCluster(clusterAt(repo, given), { tokens: TOKENS, dryRun });
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(GitopsError);
        expect(error).toMatchObject({ kind: 'input', message: expect.stringMatching(message) });
        expect((error as GitopsError).fix).toMatch(/^set gitops\.provider to \w+ in the cluster file, or remove it/);
      }
      await expect(diffAgainstGitops({ ...clusterAt(repo, given), tokens: TOKENS })).rejects.toMatchObject({
        kind: 'input',
        message: expect.stringMatching(message),
      });
    },
  );

  it('--provider that the host contradicts: the fix names --provider', () => {
    expect(() =>
      prepareCluster(clusterAt('https://gitlab.com/acme/gitops.git'), { provider: 'github', tokens: TOKENS }),
    ).toThrow(
      expect.objectContaining({ fix: expect.stringMatching(/^pass --provider gitlab, or leave --provider out/) }),
    );
  });

  it('--github-repo on a host of another provider: the message and fix name --github-repo', () => {
    expect(() =>
      prepareCluster(clusterAt('https://gitlab.com/acme/gitops.git'), {
        provider: 'github',
        providerOption: '--github-repo',
        tokens: TOKENS,
      }),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/but the provider is github \(--github-repo\): GITHUB_TOKEN/),
        fix: expect.stringMatching(/^leave --github-repo out \(it is for GitHub\); gitlab\.com tells its provider/),
      }),
    );
  });

  it('--github-repo with gitops.provider gitlab (a self-managed GitLab): refused, naming --remote-path', () => {
    expect(() =>
      prepareCluster(clusterAt('git@git.example.com:g/p.git', 'gitlab'), {
        provider: 'github',
        providerOption: '--github-repo',
        tokens: TOKENS,
        dryRun: true,
      }),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(
          /^--github-repo names a GitHub repository, but gitops\.provider of \S+ is gitlab/,
        ),
        fix: expect.stringMatching(/^pass --remote-path GROUP\/NAME instead/),
      }),
    );
  });

  it('a trailing dot or a subdomain tells the provider as the bare domain does', () => {
    expect(inferProvider(parseRemote('https://gitlab.com./acme/gitops.git'))).toBe('gitlab');
    expect(inferProvider(parseRemote('git@ssh.gitlab.com.:acme/gitops.git'))).toBe('gitlab');
    expect(inferProvider(parseRemote('https://notgitlab.com/acme/gitops.git'))).toBeUndefined();
    expect(inferProvider(parseRemote('https://gitlab.com.evil.example/acme/gitops.git'))).toBeUndefined();
  });

  it("a provider's own hosts share its API (ssh.github.com, altssh.gitlab.com, <name>.ghe.com)", () => {
    expect(defaultApiUrl(parseRemote('ssh://git@ssh.github.com:443/o/r.git'), 'github')).toBe('https://api.github.com');
    expect(defaultApiUrl(parseRemote('ssh://git@altssh.gitlab.com:443/g/r.git'), 'gitlab')).toBe(
      'https://gitlab.com/api/v4',
    );
    expect(defaultApiUrl(parseRemote('https://acme.ghe.com/o/r.git'), 'github')).toBe('https://api.acme.ghe.com');
    expect(defaultApiUrl(parseRemote('git@codeberg.org:o/r.git'), 'gitea')).toBe('https://codeberg.org/api/v1');
  });

  it.each(['a@b@gitlab.com:g/p.git', 'https://ghe.example\\@gitlab.com/g/p.git'])(
    'a remote from which git and glidepath could read different hosts is refused: %s',
    (repo) => {
      expect(() => parseRemote(repo)).toThrow(
        expect.objectContaining({ kind: 'input', message: expect.stringMatching(/makes git and glidepath read/) }),
      );
    },
  );

  it.each([
    [
      'https://github.com/acme/gitops.git',
      { apiUrl: 'https://gitlab.com/api/v4' },
      '--api-url',
      'gitlab.com, a gitlab',
      'github',
      'GITHUB_TOKEN',
    ],
    [
      'https://gitlab.com/acme/gitops.git',
      { apiUrl: 'https://api.github.com' },
      '--api-url',
      'github.com, a github',
      'gitlab',
      'GITLAB_TOKEN',
    ],
  ] as const)(
    "an API address on another provider's domain is refused, dry run or not: %s with %o",
    (repo, settings, from, on, provider, token) => {
      for (const dryRun of [false, true])
        expect(() => prepareCluster(clusterAt(repo), { ...settings, tokens: TOKENS, dryRun })).toThrow(
          expect.objectContaining({
            kind: 'input',
            message:
              `${from} is on ${on} host, but the provider is ${provider}: ` +
              `${token} would be sent to ${on.split(',')[0]}`,
          }),
        );
    },
  );

  it('an API address of the provider, or of a host that tells none (GitHub Enterprise), is taken', () => {
    const github = clusterAt('https://github.com/acme/gitops.git');
    for (const apiUrl of ['https://api.github.com', 'https://ghe.corp.example/api/v3'])
      expect(prepareCluster(github, { apiUrl, tokens: TOKENS }).apiUrl).toBe(apiUrl);
    // GITHUB_API_URL is for github clusters only: GitHub Actions sets it on every job.
    const gitlab = clusterAt('https://gitlab.com/acme/gitops.git');
    expect(prepareCluster(gitlab, { githubApiUrl: 'https://api.github.com', tokens: TOKENS }).apiUrl).toBe(
      'https://gitlab.com/api/v4',
    );
  });

  it('the provider the host tells, none, or any provider for a host that tells none (GitHub Enterprise) ship', () => {
    const ok = [
      clusterAt('https://gitlab.com/acme/gitops.git', 'gitlab'),
      clusterAt('https://gitlab.com/acme/gitops.git', 'none'),
      clusterAt('https://gitlab.com/acme/gitops.git'),
      clusterAt('https://ghe.corp.example/acme/gitops.git', 'github'),
      clusterAt('https://git.corp.example/acme/gitops.git', 'gitlab'),
    ];
    for (const input of ok) expect(() => prepareCluster(input, { tokens: TOKENS })).not.toThrow();
  });
});

describe('the words of a change, as the installed glidepath command', () => {
  const review = reviewChanges(
    'clusters/prod/glidepath',
    [],
    [{ path: 'a.k8s.yaml', content: 'kind: ConfigMap\nmetadata:\n  name: a\n' }],
  );
  const provenance = {
    cluster: 'prod',
    base: 'main',
    baseCommit: 'f'.repeat(40),
    hash: 'a'.repeat(64),
    source: { dirty: false },
    unverified: true,
  };

  it('with no git checkout, the commit message and the body name the package version, not "an unknown commit"', () => {
    const message = commitMessage(review, { ...provenance, title: 't' });
    expect(message).toContain('Source: no commit (the source folder is not a git checkout, or has no commit yet)\n');
    expect(message).toContain(`Rendered by: glidepath-gitops ${packageJson.version}\n`);
    expect(message).not.toContain('unknown commit');
    expect(changeBody(review, provenance, 65_536)).toContain(
      `Rendered by glidepath-gitops ${packageJson.version} from no commit (`,
    );
  });

  it('with a commit, the source is that commit (perhaps of a project that installed glidepath), named apart', () => {
    const source = { commit: 'c'.repeat(40), dirty: false };
    const message = commitMessage(review, { ...provenance, source, title: 't' });
    expect(message).toContain(
      `Source: ${'c'.repeat(40)} (clean tree)\nRendered by: glidepath-gitops ${packageJson.version}\n`,
    );
    expect(message).not.toContain(`glidepath-gitops ${'c'.repeat(12)}`);
    expect(changeBody(review, { ...provenance, source }, 65_536)).toContain(
      `Rendered by glidepath-gitops ${packageJson.version} from ${'c'.repeat(40)} (clean tree).`,
    );
  });

  it('hints name glidepath diff and glidepath verify, never npm run', () => {
    const body = changeBody(review, provenance, 65_536);
    expect(body).toContain('`glidepath verify` checks it');
    expect(body).not.toContain('npm run');
  });
});
