/**
 * The product's own path on a real forge: `pr --provider gitea` opens the pull request on the real Gitea, a rerun
 * does nothing, a config change refreshes the same pull request, a wrong token is refused, and the merge through
 * Gitea's API puts the rendered folder on the base branch; then a real Argo CD syncs it (argocd-loop.ts).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { GITOPS_REPO, mergePull, onMain, type Gitea } from '../lib/gitea';
import { LOOP_NAMESPACE, REPO_DIR } from '../lib/install';
import { runCommand } from '../lib/kube';
import type { Scenario } from '../lib/report';
import { argoCdLoop } from './argocd-loop';
import type { E2eContext } from './context';

const LABEL = 'glidepath';
const REVIEWER = 'e2e-reviewer';

interface Pull {
  number: number;
  title: string;
  body: string;
  state: string;
  merged: boolean;
  head: { ref: string; sha: string };
  labels: { name: string }[];
  requested_reviewers: { login: string }[] | null;
}

/** The gitops repo on Gitea (main with Gitea's README), a label, and a second user to ask for reviews. */
export async function createGitopsRepo(gitea: Gitea): Promise<string> {
  const repo = await gitea.api('POST', '/user/repos', {
    name: GITOPS_REPO,
    auto_init: true,
    default_branch: 'main',
    readme: 'Default',
  });
  if (repo.status !== 201)
    throw new Error(`creating the gitops repo: HTTP ${repo.status} ${JSON.stringify(repo.data)}`);
  const label = await gitea.api('POST', `/repos/${gitea.user}/${GITOPS_REPO}/labels`, {
    name: LABEL,
    color: '#00aabb',
  });
  if (label.status !== 201) throw new Error(`creating the label: HTTP ${label.status} ${JSON.stringify(label.data)}`);
  const user = await gitea.api('POST', '/admin/users', {
    username: REVIEWER,
    email: `${REVIEWER}@example.invalid`,
    password: `${gitea.token.slice(0, 20)}Aa1!`,
    must_change_password: false,
  });
  if (user.status !== 201) throw new Error(`creating the reviewer: HTTP ${user.status} ${JSON.stringify(user.data)}`);
  const collaborator = await gitea.api('PUT', `/repos/${gitea.user}/${GITOPS_REPO}/collaborators/${REVIEWER}`, {
    permission: 'read',
  });
  if (collaborator.status !== 204)
    throw new Error(`adding the reviewer: HTTP ${collaborator.status} ${JSON.stringify(collaborator.data)}`);
  return `${gitea.url}/${gitea.user}/${GITOPS_REPO}.git`;
}

/** `npm run pr` of the e2e cluster against the Gitea repo, as a person would run it. */
export function pr(
  ctx: E2eContext,
  gitea: Gitea,
  clusters: string,
  extra: readonly string[] = [],
  token = gitea.prToken,
) {
  return runCommand(
    process.execPath,
    [
      join(REPO_DIR, 'scripts', 'cli.mjs'),
      'pr',
      '--clusters',
      clusters,
      '--cluster',
      'e2e',
      '--provider',
      'gitea',
      '--repo',
      `${gitea.url}/${gitea.user}/${GITOPS_REPO}.git`,
      '--api-url',
      gitea.apiUrl,
      '--allow-insecure-http',
      '--cache-dir',
      join(ctx.tmp, 'pr-cache'),
      '--source-dir',
      REPO_DIR,
      ...extra,
    ],
    { GITEA_TOKEN: token, GITHUB_TOKEN: '', GITLAB_TOKEN: '', GITHUB_API_URL: '' },
  );
}

/** A copy of the run's cluster file (or of the one in `from`) with one change, in a clusters folder of its own. */
export function changedClusters(
  ctx: E2eContext,
  name: string,
  change: (doc: ReturnType<typeof parseDocument>) => void,
  from = join(ctx.tmp, 'clusters'),
): string {
  const dir = join(ctx.tmp, name);
  mkdirSync(dir, { recursive: true });
  const doc = parseDocument(readFileSync(join(from, 'e2e.yaml'), 'utf8'));
  change(doc);
  writeFileSync(join(dir, 'e2e.yaml'), doc.toString());
  return dir;
}

/** The rendered folder of a clusters folder, with the project's CLI. */
export async function synth(clusters: string): Promise<string> {
  const out = `${clusters}-render`;
  const result = await runCommand(process.execPath, [
    join(REPO_DIR, 'scripts', 'cli.mjs'),
    'synth',
    '--clusters',
    clusters,
    '--out',
    out,
  ]);
  if (result.code !== 0) throw new Error(`synth of ${clusters} failed: ${result.stderr}`);
  return join(out, 'e2e');
}

async function openPulls(gitea: Gitea): Promise<Pull[]> {
  return (await gitea.api<Pull[]>('GET', `/repos/${gitea.user}/${GITOPS_REPO}/pulls?state=open`)).data;
}

async function fileAt(gitea: Gitea, ref: string, path: string): Promise<string | undefined> {
  const answer = await gitea.api<{ content?: string }>(
    'GET',
    `/repos/${gitea.user}/${GITOPS_REPO}/contents/${path}?ref=${encodeURIComponent(ref)}`,
  );
  return answer.status === 200 && answer.data.content !== undefined
    ? Buffer.from(answer.data.content, 'base64').toString('utf8')
    : undefined;
}

const commandDetail = (result: { code: number; stdout: string; stderr: string }) => ({
  code: result.code,
  output: `${result.stdout}${result.stderr}`.trim().split('\n').slice(-12),
});

/** `othersDone`: the other scenarios have finished (the Argo CD half changes what they watch). */
export async function gitopsLoop(ctx: E2eContext, s: Scenario, othersDone: Promise<void>): Promise<void> {
  const gitea = ctx.gitea;
  if (gitea === undefined) {
    s.check('Gitea is running', false, ctx.giteaError);
    return;
  }
  const clusters = join(ctx.tmp, 'clusters');
  const folder = 'clusters/e2e/glidepath';

  const opened = await pr(ctx, gitea, clusters, ['--draft', '--label', LABEL, '--reviewer', REVIEWER]);
  s.check('pr --provider gitea exits 0', opened.code === 0, commandDetail(opened));
  const [pull, ...others] = await openPulls(gitea);
  s.check(
    'one pull request is open on Gitea',
    pull !== undefined && others.length === 0,
    (await openPulls(gitea)).map((p) => p.title),
  );
  if (pull === undefined) return;
  s.note('pull request', { number: pull.number, title: pull.title, branch: pull.head.ref });
  s.check(
    '--draft: the title starts with WIP: (Gitea keeps drafts in the title)',
    pull.title.startsWith('WIP: '),
    pull.title,
  );
  s.check(
    '--label: the pull request carries the existing label',
    pull.labels.map((l) => l.name).join(',') === LABEL,
    pull.labels,
  );
  s.check(
    '--reviewer: a review is requested from the user',
    (pull.requested_reviewers ?? []).some((r) => r.login === REVIEWER),
    pull.requested_reviewers,
  );
  s.check('the branch is glidepath/e2e/<hash>', /^glidepath\/e2e\/[0-9a-f]{12}$/.test(pull.head.ref), pull.head.ref);
  const rendered = readdirSync(ctx.rendered)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const mismatched: string[] = [];
  for (const file of rendered)
    if ((await fileAt(gitea, pull.head.ref, `${folder}/${file}`)) !== readFileSync(join(ctx.rendered, file), 'utf8'))
      mismatched.push(file);
  s.check('the branch holds the rendered folder, file for file', mismatched.length === 0, { rendered, mismatched });

  const again = await pr(ctx, gitea, clusters);
  const [afterRerun] = await openPulls(gitea);
  s.check(
    'a rerun does nothing: the same pull request, the same commit',
    again.code === 0 && afterRerun?.number === pull.number && afterRerun.head.sha === pull.head.sha,
    commandDetail(again),
  );

  const wrong = await pr(ctx, gitea, clusters, [], '0'.repeat(40));
  s.note('a wrong token', commandDetail(wrong));
  const [afterWrong, ...extra] = await openPulls(gitea);
  s.check(
    'a wrong token: exit 1, nothing pushed or opened',
    wrong.code === 1 && afterWrong?.head.sha === pull.head.sha && extra.length === 0,
    commandDetail(wrong),
  );
  // Gitea answers 401 to git, which then finds no user name to ask for: the fix must name the provider's variable.
  s.check(
    'git is refused, and the fix names GITEA_TOKEN, never the token',
    /authentication failed/.test(wrong.stderr) &&
      /set GITEA_TOKEN to a token that can read and push/.test(wrong.stderr) &&
      !`${wrong.stdout}${wrong.stderr}`.includes('0'.repeat(40)),
    commandDetail(wrong),
  );

  // A new tracked namespace: a change that leaves the other scenarios' objects as they are.
  const tracked = changedClusters(ctx, 'clusters-loop-1', (doc) =>
    doc.addIn(['tracked', 'namespaces'], LOOP_NAMESPACE),
  );
  const refreshed = await pr(ctx, gitea, tracked);
  const [updated, ...more] = await openPulls(gitea);
  s.check(
    'a config change refreshes the same pull request with a new commit',
    refreshed.code === 0 && updated?.number === pull.number && more.length === 0 && updated.head.sha !== pull.head.sha,
    commandDetail(refreshed),
  );
  s.check(
    'the refreshed pull request stays a draft (WIP:)',
    updated?.title.startsWith('WIP: ') === true,
    updated?.title,
  );
  s.check(
    "its body lists the new namespace's objects",
    updated?.body.includes(`| added | Role | ${LOOP_NAMESPACE} | glidepath-notified-prune |`) === true,
    updated?.body.slice(0, 600),
  );

  const mergeWip = await gitea.api('POST', `/repos/${gitea.user}/${GITOPS_REPO}/pulls/${pull.number}/merge`, {
    Do: 'merge',
  });
  s.note('merge of a WIP: pull request', { status: mergeWip.status, data: mergeWip.data });
  s.check('Gitea refuses to merge a WIP: pull request', mergeWip.status >= 400, mergeWip);
  const ready = await gitea.api('PATCH', `/repos/${gitea.user}/${GITOPS_REPO}/pulls/${pull.number}`, {
    title: updated!.title.replace(/^WIP: /, ''),
  });
  const early = await onMain(() =>
    gitea.api('POST', `/repos/${gitea.user}/${GITOPS_REPO}/pulls/${pull.number}/merge`, {
      Do: 'merge',
      delete_branch_after_merge: true,
    }),
  );
  s.note('a merge right after the edit', { status: early.status, data: early.data });
  const merged = early.status === 200 ? { ...early, waitedMs: 0 } : await mergePull(gitea, GITOPS_REPO, pull.number);
  s.note('waited for Gitea to check the pull request (ms)', merged.waitedMs);
  s.check(
    'marked ready, the merge through Gitea\'s API succeeds (once Gitea has checked it: 405 "Please try again ' +
      'later" before)',
    ready.status === 201 &&
      merged.status === 200 &&
      (early.status === 200 || (early.status === 405 && /try again later/i.test(JSON.stringify(early.data)))),
    { ready: ready.status, early: early.status, merged: merged.status, data: merged.data },
  );
  const expected = await synth(tracked);
  const differ: string[] = [];
  for (const file of readdirSync(expected).filter((f) => f.endsWith('.yaml')))
    if ((await fileAt(gitea, 'main', `${folder}/${file}`)) !== readFileSync(join(expected, file), 'utf8'))
      differ.push(file);
  s.check('main holds the render of the changed config, file for file', differ.length === 0, differ);

  const after = await pr(ctx, gitea, tracked);
  s.check(
    'pr after the merge: nothing to change, nothing opened',
    after.code === 0 && (await openPulls(gitea)).length === 0,
    commandDetail(after),
  );

  await othersDone;
  if (ctx.argocd === undefined) {
    s.check('Argo CD (application controller, repo server, helm, kustomize, Redis) is running', false, ctx.argocdError);
    return;
  }
  await argoCdLoop(ctx, s, gitea, {
    mainCommit: () => mainCommit(gitea),
    mergeChange: async (name, change) => {
      const changed = changedClusters(ctx, name, change, tracked);
      const opened = await pr(ctx, gitea, changed);
      const [next] = await openPulls(gitea);
      if (opened.code !== 0 || next === undefined)
        throw new Error(`pr of ${name} opened nothing: ${JSON.stringify(commandDetail(opened))}`);
      const answer = await mergePull(gitea, GITOPS_REPO, next.number);
      if (answer.status !== 200)
        throw new Error(`merging pull request #${next.number}: HTTP ${answer.status} ${JSON.stringify(answer.data)}`);
      return mainCommit(gitea);
    },
  });
}

/** main's commit as git sees it, which is what Argo CD resolves `main` to. */
async function mainCommit(gitea: Gitea): Promise<string> {
  const result = await runCommand(
    'git',
    ['ls-remote', `${gitea.url}/${gitea.user}/${GITOPS_REPO}.git`, 'refs/heads/main'],
    { GIT_TERMINAL_PROMPT: '0' },
  );
  const commit = /^([0-9a-f]{40})\s/.exec(result.stdout)?.[1];
  if (commit === undefined) throw new Error(`git ls-remote of the gitops repo gave no main: ${result.stderr}`);
  return commit;
}
