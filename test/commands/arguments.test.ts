import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { closestName } from '../../src/closest-name';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { REMEMBERED } from '../helpers/remembered';

const { stdout, stderr, clear } = capturePrintedLines();

/** The options a command's --help lists, e.g. `--cluster`. */
async function helpOptions(command: string): Promise<string[]> {
  clear();
  expect(await main([command, '--help'])).toBe(0);
  return [...stdout.join('\n').matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]!);
}

describe('each command has its own --help', () => {
  it.each([
    [
      'synth',
      ['--cluster', '--clusters', '--relay-ip', '--out', '--stdout', '--check', '--summary', '--json', '--help'],
    ],
    ['verify', ['--cluster', '--clusters', '--relay-ip', '--json', '--help']],
    [
      'diff',
      [
        '--cluster',
        '--clusters',
        '--relay-ip',
        '--repo',
        '--against',
        '--base',
        '--cache-dir',
        '--provider',
        '--allow-insecure-http',
        '--exit-code',
        '--skip-verify',
        '--json',
        '--help',
      ],
    ],
    [
      'pr',
      [
        '--cluster',
        '--clusters',
        '--relay-ip',
        '--repo',
        '--against',
        '--base',
        '--cache-dir',
        '--provider',
        '--allow-insecure-http',
        '--all',
        '--dry-run',
        '--skip-verify',
        '--api-url',
        '--remote-path',
        '--github-repo',
        '--push-option',
        '--draft',
        '--label',
        '--reviewer',
        '--gitlab-auth',
        '--author',
        '--source-dir',
        '--source-url',
        '--json',
        '--help',
      ],
    ],
  ])('%s lists exactly the options it takes', async (command, options) => {
    expect(await helpOptions(command)).toEqual(options);
    expect(stdout[0]).toMatch(new RegExp(`^${command}: `));
  });

  it('every option a command lists, it accepts', async () => {
    for (const command of ['synth', 'verify', 'diff', 'pr']) {
      for (const option of await helpOptions(command)) {
        await main([command, option, ...(option === '--help' ? [] : ['x']), '--help']);
        expect(stderr.join('\n'), `${command} ${option}`).not.toMatch(/is not an option/);
      }
    }
  });

  it.each([[[]], [['--help']], [['-h']]])(
    '%j prints the commands and renders nothing (fails before: no command ran synth)',
    async (argv) => {
      const cwd = process.cwd();
      const empty = mkdtempSync(join(tmpdir(), 'glidepath-no-command-'));
      process.chdir(empty);
      try {
        expect(await main(argv)).toBe(0);
      } finally {
        process.chdir(cwd);
      }
      expect(stdout.join('\n')).toMatch(/^ {2}synth +\S/m);
      expect(readdirSync(empty)).toEqual([]);
    },
  );

  it('--version prints the version of package.json (fails before: "not an option of synth")', async () => {
    expect(await main(['--version'])).toBe(0);
    expect(stdout).toEqual([JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')).version]);
  });

  it('an option with no command before it is refused, not run as synth', async () => {
    expect(await main(['--check'])).toBe(2);
    expect(stderr).toEqual([
      'error: --check needs a command before it',
      'fix: e.g. glidepath synth --check; glidepath help lists the commands',
    ]);
  });

  it('the example names a command that takes the option, and none when no command does (-v)', async () => {
    expect(await main(['--base-url', 'http://x:8080'])).toBe(2);
    expect(stderr[1]).toBe('fix: e.g. glidepath steps --base-url; glidepath help lists the commands');
    clear();
    expect(await main(['-v'])).toBe(2);
    expect(stderr).toEqual([
      'error: -v needs a command before it',
      'fix: glidepath help lists the commands; glidepath --version prints the version',
    ]);
  });

  it('a command written after the option is the one the example names, with the rest of the line', async () => {
    // `glidepath --cluster prod diff` was told to run `glidepath synth --cluster`.
    expect(await main(['--cluster', 'prod', 'diff'])).toBe(2);
    expect(stderr[1]).toBe('fix: e.g. glidepath diff --cluster prod; glidepath help lists the commands');
    clear();
    expect(await main(['--json', 'facts', '--cluster', 'prod'])).toBe(2);
    expect(stderr[1]).toBe('fix: e.g. glidepath facts --json --cluster prod; glidepath help lists the commands');
    clear();
    expect(await main(['--cluster', `ghp_${'a1B2'.repeat(9)}`, 'diff'])).toBe(2);
    expect(stderr[1]).toBe('fix: e.g. glidepath diff --cluster ghp_… 40 characters; glidepath help lists the commands');
  });

  it('help lists every command with its summary', async () => {
    expect(await main(['help'])).toBe(0);
    for (const command of ['synth', 'verify', 'pr', 'diff'])
      expect(stdout.join('\n')).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
  });
});

describe('a mistyped command line exits 2 and says what was meant', () => {
  it.each([
    [
      ['verify', '--clusetr', 'x'],
      'error: --clusetr is not an option of verify',
      'fix: did you mean --cluster? glidepath verify --help lists its options',
    ],
    [['diff', '--dryrun'], 'error: --dryrun is not an option of diff', 'fix: glidepath diff --help lists its options'],
    [
      ['pr', '--dryrun'],
      'error: --dryrun is not an option of pr',
      'fix: did you mean --dry-run? glidepath pr --help lists its options',
    ],
    [['synth', '--out'], 'error: --out needs a value', 'fix: e.g. --out DIR'],
    [['synth', '--cluster', '--out', 'x'], 'error: --cluster needs a value', 'fix: e.g. --cluster NAME|FILE'],
    [['synth', '--check=yes'], 'error: --check takes no value (got "yes")', 'fix: write --check alone'],
    // parseArgs keeps the last value: `verify --cluster prod --cluster dev` verified dev alone (helper-23).
    [
      ['verify', '--cluster', 'prod', '--json', '--cluster=dev'],
      'error: --cluster is given 2 times ("prod", "dev"); it takes one value',
      'fix: give --cluster once, and run the command again for another value',
    ],
    [
      ['synth', 'prod'],
      'error: synth takes no argument "prod"',
      'fix: options start with --; glidepath synth --help lists its options',
    ],
    [['verfy'], 'error: unknown command "verfy"', 'fix: did you mean verify? glidepath help lists the commands'],
    // An empty word is no typo of anything (it was "did you mean pr?").
    [[''], 'error: unknown command ""', 'fix: glidepath help lists the commands'],
  ])('%j', async (argv, error, fix) => {
    expect(await main(argv)).toBe(2);
    expect(stderr).toEqual([error, fix]);
  });

  it('a token or an environment secret in a command line word is shown masked, never whole (exit 2)', async () => {
    const token = `ghp_${'Tq7'.repeat(12)}`;
    const secret = 'correct-horse-battery-staple';
    const env = { ...process.env, GITHUB_TOKEN: secret };
    const masked = '[a value that looks like a GitHub token (ghp_… 40 characters)]';
    const inEnvironment = '[a value that holds the value of the environment variable GITHUB_TOKEN]';
    for (const [argv, error] of [
      [[token], `error: unknown command ${masked}`],
      [[`--${token}`], `error: ${masked} needs a command before it`],
      [['pr', '--cluster', 'prod', token], `error: pr takes no argument ${masked}`],
      [['pr', '--cluster', 'prod', secret], `error: pr takes no argument ${inEnvironment}`],
      [['synth', `--check=${token}`], `error: --check takes no value (got ${masked})`],
      [['synth', `--stdout=${secret}`], `error: --stdout takes no value (got ${inEnvironment})`],
      [['synth', `--${token}`], `error: ${masked} is not an option of synth`],
      [
        ['synth', '--cluster', 'prod', '--cluster', token],
        `error: --cluster is given 2 times ("prod", ${masked}); it takes one value`,
      ],
    ] as const) {
      clear();
      expect(await main(argv, { env }), argv.join(' ')).toBe(2);
      expect(stderr[0]).toBe(error);
      expect(stderr.join('\n')).not.toMatch(/Tq7Tq7|correct-horse/);
    }
  });

  it('pr: a --source-dir that is no folder exits 2 before anything runs, naming it', async () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const missing = join(clusterDir({}), 'nonexist');
    const file = join(clusterDir({ 'a.txt': 'x' }), 'a.txt');
    for (const [sourceDir, problem] of [
      [missing, 'no such folder'],
      [file, 'not a folder'],
    ] as const) {
      clear();
      const cache = join(clusterDir({}), 'cache');
      const args = ['pr', '--clusters', dir, '--cluster', 'prod', '--repo', join(missing, 'repo.git')];
      expect(
        await main([...args, '--provider', 'none', '--dry-run', '--cache-dir', cache, '--source-dir', sourceDir], {
          ...REMEMBERED,
        }),
      ).toBe(2);
      expect(stderr).toEqual([
        `error: --source-dir ${sourceDir}: ${problem}`,
        'fix: pass the checkout of this repository whose commit the change names, or leave --source-dir out for ' +
          'the working directory',
      ]);
      expect(existsSync(cache)).toBe(false);
    }
  });

  it("pr: an --author that is not 'NAME <EMAIL>' exits 2 before anything runs, with an example", async () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const cache = join(clusterDir({}), 'cache');
    const args = ['pr', '--clusters', dir, '--cluster', 'prod', '--repo', join(clusterDir({}), 'repo.git')];
    expect(
      await main([...args, '--provider', 'none', '--dry-run', '--cache-dir', cache, '--author', 'Ada'], REMEMBERED),
    ).toBe(2);
    expect(stderr).toEqual([
      'error: --author "Ada" is not NAME <EMAIL>',
      "fix: give a name and an address as git writes them, e.g. --author 'Ada Lovelace <ada@example.org>'",
    ]);
    expect(existsSync(cache)).toBe(false);
  });

  it('pr and diff: a --cache-dir that is a file, a dangling link or a loop exits 2 before anything runs', async () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const file = join(clusterDir({ 'a.txt': 'x' }), 'a.txt');
    const dangling = join(clusterDir({}), 'cache');
    symlinkSync(join(dangling, '..', 'gone'), dangling);
    const loop = join(clusterDir({}), 'loop');
    symlinkSync(loop, loop);
    for (const [path, problem] of [
      [file, 'not a folder'],
      [dangling, 'a symbolic link to nothing'],
      [join(dangling, 'sub'), `${dangling} on its way is a symbolic link to nothing`],
      [loop, 'a loop of symbolic links'],
      [join(loop, 'sub'), `${loop} on its way is a loop of symbolic links`],
    ])
      for (const command of ['pr', 'diff']) {
        clear();
        const args = [command, '--clusters', dir, '--cluster', 'prod', '--provider', 'none', '--cache-dir', path!];
        expect(await main(args, REMEMBERED), command).toBe(2);
        expect(stderr).toEqual([
          `error: --cache-dir ${path}: ${problem}`,
          'fix: name a folder (glidepath makes it when it does not exist), or leave --cache-dir out for ' +
            '.glidepath-cache',
        ]);
      }
  });

  it('pr and diff: the default .glidepath-cache as a loop or a dangling link exits 2 before anything', async () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const cwd = process.cwd();
    try {
      for (const [target, problem] of [
        ['.glidepath-cache', 'a loop of symbolic links'],
        ['gone', 'a symbolic link to nothing'],
      ]) {
        process.chdir(clusterDir({}));
        symlinkSync(target!, '.glidepath-cache');
        for (const command of ['pr', 'diff']) {
          clear();
          const args = [command, '--clusters', dir, '--cluster', 'prod', '--provider', 'none'];
          expect(await main(args, REMEMBERED), command).toBe(2);
          expect(stderr).toEqual([
            `error: the cache folder .glidepath-cache: ${problem}`,
            'fix: remove .glidepath-cache (glidepath makes the folder), or pass --cache-dir with a folder',
          ]);
        }
      }
    } finally {
      process.chdir(cwd);
    }
  });

  it('suggests only names that are close', () => {
    expect(closestName('clsuter', ['cluster', 'clusters'])).toBe('cluster');
    expect(closestName('relayip', ['relay-ip', 'out'])).toBe('relay-ip');
    expect(closestName('zzz', ['cluster', 'out'])).toBeUndefined();
  });
});
