// The step of action.yml: runs glidepath verify, diff or pr with --json in the working directory, and turns the
// documents into what GitHub shows: the diff's review in the job summary, violations and failures as error
// annotations, each pull request's operation, number and URL and the documents as step outputs. Its inputs come in
// GLIDEPATH_* variables (action.yml sets them from the action's inputs). It runs the glidepath the repository
// installed (node_modules/glidepath-gitops, the packed CLI of docs/install.md; in a clone of glidepath-gitops, the
// clone's own), and only when that is the action's own version. Exit code: glidepath's (diff: the worst of its
// clusters). It imports only node: the action installs nothing.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ACTION_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE = 'glidepath-gitops';
const COMMANDS = ['verify', 'diff', 'pr'];
const env = process.env;
const input = (name) => (env[`GLIDEPATH_${name}`] ?? '').trim();

/** An error annotation on the run, and exit 2 (bad input), as glidepath exits on a mistyped command line. */
function refuse(message) {
  console.log(`::error title=glidepath::${escapeData(message)}`);
  process.exit(2);
}

// GitHub's workflow commands: %, CR and LF are escaped in the message.
function escapeData(text) {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function setOutput(name, value) {
  if (!env.GITHUB_OUTPUT) return;
  const delimiter = `glidepath_${randomBytes(12).toString('hex')}`;
  appendFileSync(env.GITHUB_OUTPUT, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

/** A workflow command (`::warning ...`) starts a line of the log: a file name with a line break must not start one. */
function oneLine(text) {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
}

function summary(text) {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${text}\n`);
}

/** glidepath <args> --json: its exit code and document (undefined when it printed none, e.g. on bad input). */
function glidepath(args, childEnv) {
  console.log(`glidepath ${oneLine(args.join(' '))}`);
  const result = spawnSync(process.execPath, [GLIDEPATH, ...args, '--json'], {
    env: childEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.error) throw result.error;
  const line = result.stdout.trim();
  return { code: result.status ?? 1, document: line === '' ? undefined : JSON.parse(line), line };
}

/** The glidepath CLI the repository in `dir` installed, and its version, or why there is none to run. */
function installedGlidepath(dir) {
  const manifest = (folder) => {
    try {
      return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    } catch {
      return undefined;
    }
  };
  // A clone of glidepath-gitops (this repository's own workflow) runs itself.
  const own = manifest(dir);
  if (own?.name === PACKAGE) return { cli: join(dir, 'bin', 'glidepath.mjs'), version: own.version, where: dir };
  for (let folder = resolve(dir); ; folder = dirname(folder)) {
    const installed = join(folder, 'node_modules', PACKAGE);
    const found = manifest(installed);
    if (found !== undefined && existsSync(join(installed, 'bin', 'glidepath.mjs')))
      return { cli: join(installed, 'bin', 'glidepath.mjs'), version: found.version, where: installed };
    if (dirname(folder) === folder) return undefined;
  }
}

const actionVersion = JSON.parse(readFileSync(join(ACTION_ROOT, 'package.json'), 'utf8')).version;
const installed = installedGlidepath(process.cwd());
if (installed === undefined)
  refuse(
    `${PACKAGE} is not installed in ${process.cwd()} (no node_modules/${PACKAGE}): add a step that runs npm ci ` +
      `before this action, with ${PACKAGE}-${actionVersion}.tgz in the repository's package.json (docs/install.md)`,
  );
if (installed.version !== actionVersion)
  refuse(
    `the repository installs ${PACKAGE} ${installed.version} (${installed.where}), but this action is ` +
      `${actionVersion}: pin the action to the commit of ${installed.version}, or install the tarball of ` +
      `${actionVersion} (npm install ./vendor/${PACKAGE}-${actionVersion}.tgz) and commit the lock file`,
  );
const GLIDEPATH = installed.cli;

const command = input('COMMAND');
const cluster = input('CLUSTER');
const all = input('ALL') || 'false';
if (!COMMANDS.includes(command)) refuse(`command: ${JSON.stringify(command)} is not one of ${COMMANDS.join(', ')}`);
if (all !== 'true' && all !== 'false') refuse(`all: ${JSON.stringify(all)} is not true or false`);
if (all === 'true' && cluster !== '') refuse('give cluster or all: true, not both');
if (all === 'false' && cluster === '' && command !== 'verify')
  refuse(`${command} needs cluster (a name or a cluster file) or all: true`);

const token = input('TOKEN');
const provider = input('PROVIDER');
const childEnv = { ...env };
// The token goes to the variable the provider reads; with no provider given, each cluster's own decides.
if (token !== '' && provider !== 'gitlab') childEnv.GITHUB_TOKEN = token;
if (token !== '' && provider !== 'github') childEnv.GITLAB_TOKEN = token;
if (token !== '' && (provider === '' || provider === 'gitea')) childEnv.GITEA_TOKEN = token;
const clusters = input('CLUSTERS') || 'clusters';
const shared = ['--clusters', clusters, ...(provider !== '' ? ['--provider', provider] : [])];
const gitops = [...shared, ...(input('CACHE_DIR') !== '' ? ['--cache-dir', input('CACHE_DIR')] : [])];

if (command === 'verify') {
  const { code, document, line } = glidepath(
    ['verify', '--clusters', clusters, ...(cluster !== '' ? ['--cluster', cluster] : [])],
    childEnv,
  );
  if (document !== undefined) {
    for (const c of document.clusters) {
      console.log(
        `cluster ${c.cluster} (${c.file}): ${c.objects} objects, ${c.checks} checks, ${c.violations.length} violations`,
      );
      for (const v of c.violations)
        console.log(
          `::error title=glidepath verify ` +
            `${c.cluster}::${escapeData(`${v.object}: ${v.rule}: ${v.message}; fix: ${v.fix}`)}`,
        );
      for (const w of c.warnings)
        console.log(
          `::warning title=glidepath verify ` +
            `${c.cluster}::${escapeData(`${w.object}: ${w.rule}: ${w.message}; consider: ${w.fix}`)}`,
        );
    }
    setOutput('json', line);
  }
  process.exit(code);
}

if (command === 'diff') {
  const targets =
    cluster !== ''
      ? [cluster]
      : readdirSync(clusters)
          .filter((name) => /^[^.].*\.ya?ml$/s.test(name))
          .sort()
          .map((name) => join(clusters, name));
  let worst = 0;
  const lines = [];
  for (const target of targets) {
    const { code, document, line } = glidepath(['diff', ...gitops, '--cluster', target], childEnv);
    worst = Math.max(worst, code);
    if (document === undefined) {
      summary(`**${oneLine(target)}**: the diff failed (exit code ${code}); the job log says why.\n`);
      continue;
    }
    summary(document.markdown);
    lines.push(line);
  }
  setOutput('changed', String(lines.some((line) => JSON.parse(line).changed)));
  setOutput('json', lines.join('\n'));
  process.exit(worst);
}

/** A true/false input. */
function flag(name) {
  const value = input(name.toUpperCase().replaceAll('-', '_')) || 'false';
  if (value !== 'true' && value !== 'false') refuse(`${name}: ${JSON.stringify(value)} is not true or false`);
  return value === 'true';
}

/** A list input: one item a line, or separated by commas. */
function list(name) {
  return input(name.toUpperCase())
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const relayIp = input('RELAY_IP');
const base = input('BASE');
if (relayIp !== '' && all === 'true') refuse('relay-ip applies to one cluster: give cluster, not all: true');
const prOptions = [
  ...(flag('draft') ? ['--draft'] : []),
  ...list('label').flatMap((label) => ['--label', label]),
  ...list('reviewer').flatMap((reviewer) => ['--reviewer', reviewer]),
  ...(relayIp !== '' ? ['--relay-ip', relayIp] : []),
  ...(base !== '' ? ['--base', base] : []),
  ...(flag('dry-run') ? ['--dry-run'] : []),
];

/**
 * What happened to a cluster's change, in the words of the actions teams know (peter-evans/create-pull-request):
 * created, updated, unchanged, closed (the base holds the render, and the obsolete change was closed), or failed.
 */
function operation(c) {
  if (c.state === 'opened') return 'created';
  if (c.state === 'updated') return 'updated';
  if (c.state === 'no-change' && c.closed.length > 0) return 'closed';
  if (c.state === 'failed') return 'failed';
  return 'unchanged';
}

const { code, document, line } = glidepath(
  ['pr', ...gitops, ...prOptions, ...(all === 'true' ? ['--all'] : ['--cluster', cluster])],
  childEnv,
);
if (document !== undefined) {
  const results = document.clusters.map((c) => ({
    cluster: c.cluster,
    operation: operation(c),
    ...(c.number !== undefined ? { number: c.number } : c.closed?.[0] ? { number: c.closed[0].number } : {}),
    ...(c.url !== undefined ? { url: c.url } : c.closed?.[0] ? { url: c.closed[0].url } : {}),
  }));
  for (const c of document.clusters) {
    if (c.state === 'failed')
      console.log(
        `::error title=glidepath pr ` +
          `${c.cluster}::${escapeData(`${c.error.message}${c.error.fix ? `; fix: ${c.error.fix}` : ''}`)}`,
      );
    else console.log(`${c.cluster}: ${c.state}${c.url ? ` ${c.url}` : c.branch ? ` ${c.branch}` : ''}`);
  }
  setOutput('pr-urls', document.clusters.flatMap((c) => (c.url ? [c.url] : [])).join('\n'));
  // One cluster: its change as three outputs; every run: all of them as JSON.
  if (all !== 'true' && results.length === 1) {
    setOutput('pull-request-operation', results[0].operation);
    setOutput('pull-request-number', results[0].number === undefined ? '' : String(results[0].number));
    setOutput('pull-request-url', results[0].url ?? '');
  }
  setOutput('pull-requests', JSON.stringify(results));
  setOutput('json', line);
}
process.exit(code);
