// The step of action.yml: runs glidepath verify, diff or pr with --json in the working directory, and turns the
// documents into what GitHub shows: the diff's review in the job summary, violations and failures as error
// annotations, the pull request URLs and the documents as step outputs. Its inputs come in GLIDEPATH_* variables
// (action.yml sets them from the action's inputs). Exit code: glidepath's (diff: the worst of its clusters).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GLIDEPATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'glidepath.mjs');
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

function summary(text) {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${text}\n`);
}

/** glidepath <args> --json: its exit code and document (undefined when it printed none, e.g. on bad input). */
function glidepath(args, childEnv) {
  console.log(`glidepath ${args.join(' ')}`);
  const result = spawnSync(process.execPath, [GLIDEPATH, ...args, '--json'], {
    env: childEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.error) throw result.error;
  const line = result.stdout.trim();
  return { code: result.status ?? 1, document: line === '' ? undefined : JSON.parse(line), line };
}

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
      summary(`**${target}**: the diff failed (exit code ${code}); the job log says why.\n`);
      continue;
    }
    summary(document.markdown);
    lines.push(line);
  }
  setOutput('changed', String(lines.some((line) => JSON.parse(line).changed)));
  setOutput('json', lines.join('\n'));
  process.exit(worst);
}

const { code, document, line } = glidepath(
  ['pr', ...gitops, ...(all === 'true' ? ['--all'] : ['--cluster', cluster])],
  childEnv,
);
if (document !== undefined) {
  for (const c of document.clusters) {
    if (c.state === 'failed')
      console.log(
        `::error title=glidepath pr ` +
          `${c.cluster}::${escapeData(`${c.error.message}${c.error.fix ? `; fix: ${c.error.fix}` : ''}`)}`,
      );
    else console.log(`${c.cluster}: ${c.state}${c.url ? ` ${c.url}` : c.branch ? ` ${c.branch}` : ''}`);
  }
  setOutput('pr-urls', document.clusters.flatMap((c) => (c.url ? [c.url] : [])).join('\n'));
  setOutput('json', line);
}
process.exit(code);
