/**
 * `npm run facts`: for every scenario of test/notifcheck-scenarios/ (whose expectations scenario-files.test.ts
 * checks on the engine model), the JSON it prints carries, state by state, exactly the bodies a replay of the same
 * steps on the engine model sends; and it explains why nothing is sent.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { main } from '../../src/cli';
import { parseGoDuration } from '../../src/config/go-duration';
import { loadClusters } from '../../src/clusters';
import { recoveryBound } from '../../src/notifications/rollouts/recovery-bound';
import { loadConfigMapYaml } from '../../src/notifications/configmap/config-map';
import { ARGOCD_MODE, ROLLOUTS_MODE } from '../../src/notifications/model/modes';
import { capturePrintedLines } from '../helpers/console';
import { clusterDir } from '../helpers/cluster-files';
import { facts, Replay, type Json } from '../notifications/helpers/replay';
import { validFact } from '../../e2e/lib/fact-schema';
import { renderOnce } from '../helpers/render-once';
import { REMEMBERED } from '../helpers/remembered';
import { ALSO_COVERED } from '../helpers/also-covered';

const ROOT = join(import.meta.dirname, '../..');
const SCENARIOS = join(ROOT, 'test/notifcheck-scenarios');
const printed = capturePrintedLines();

/** prod as shipped, and prod with the opt-in retry facts (for the retry-facts scenarios). */
const PROD_FILE = join(ROOT, 'clusters/prod.yaml');
const RETRY_FILE = join(clusterDir({}), 'prod.yaml');
writeFileSync(
  RETRY_FILE,
  readFileSync(PROD_FILE, 'utf8').replace(
    '  namespace: argocd-apps\n',
    '  namespace: argocd-apps\n  retryFacts: true\n',
  ),
);

interface Entry {
  state: number;
  trigger: string;
  sent: boolean;
  why: string;
  body?: Json;
}

async function factsJson(args: string[]): Promise<Entry[]> {
  printed.clear();
  const code = await main(['facts', ...args, '--json'], REMEMBERED);
  // The scenarios' objects sit in any namespace, some without the release id: warnings only (see factsWarnings).
  expect(printed.stderr.filter((line) => !line.startsWith('warning: '))).toEqual([]);
  expect(code).toBe(0);
  return JSON.parse(printed.stdout.join('\n')) as Entry[];
}

function scenarioFiles(dir: string): string[] {
  return readdirSync(join(SCENARIOS, dir))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(SCENARIOS, dir, f));
}

const CASES = [
  ...scenarioFiles('rollouts').map((file) => ({ file, option: '--rollout', cluster: PROD_FILE })),
  ...scenarioFiles('argocd/sync-failure').map((file) => ({ file, option: '--application', cluster: PROD_FILE })),
  ...scenarioFiles('argocd/retry-facts').map((file) => ({ file, option: '--application', cluster: RETRY_FILE })),
];

/** The scenarios whose code the others reach, block for block: test:slow runs them (npm run test:coverage). */
const ALSO_COVERED_SCENARIOS: ReadonlySet<string> = new Set([
  'rollouts/02-image-update-stale.yaml',
  'rollouts/03-rollback-shaped.yaml',
  'rollouts/04-scale-only.yaml',
  'rollouts/07-bad-image-abort-restart.yaml',
  'rollouts/08-odd-shapes.yaml',
  'argocd/sync-failure/03-revision-sources-and-odd-text.yaml',
  'argocd/retry-facts/01-one-fact-per-retry.yaml',
]);

/** The bodies sent at each step, replayed by the test helper straight on the engine model. */
function replayBodies(steps: readonly Json[], option: string, cluster: string): Json[][] {
  const [loaded] = loadClusters({ dir: join(ROOT, 'clusters'), cluster });
  const mode = option === '--rollout' ? ROLLOUTS_MODE : ARGOCD_MODE;
  const yaml = renderOnce(loaded!.config).find((f) => f.content.includes(`name: ${mode.configMapName}\n`))!.content;
  const replay = new Replay(mode, loadConfigMapYaml(yaml, mode.configMapName), steps[0]!.object as Json);
  let clock = 0;
  return steps.map((step) => {
    if (typeof step.time === 'string') clock = Date.parse(step.time);
    else if (typeof step.after === 'string') clock += Number(parseGoDuration(step.after) / 1_000_000n);
    return facts(
      replay.step({
        at: new Date(clock).toISOString(),
        ...(step.patch ? { patch: step.patch } : {}),
        ...(step.pruneNotified ? { prune: true } : {}),
      }),
    );
  });
}

describe.each(CASES.map((c) => [c.file.slice(SCENARIOS.length + 1), c] as const))(
  'npm run facts on %s',
  (name, { file, option, cluster }) => {
    const steps = (parse(readFileSync(file, 'utf8')) as { steps: Json[] }).steps;

    it(
      'prints one entry per state and trigger, and the same bodies, state by state, as a replay on the engine ' +
        'model',
      ALSO_COVERED_SCENARIOS.has(name) ? ALSO_COVERED : {},
      async () => {
        const entries = await factsJson(['--cluster', cluster, option, file]);
        expect([...new Set(entries.map((e) => e.state))]).toEqual(steps.map((_step, index) => index));
        const printedBodies = steps.map((_step, index) =>
          entries.filter((e) => e.state === index && e.sent).map((e) => e.body),
        );
        expect(printedBodies).toEqual(replayBodies(steps, option, cluster));
        for (const body of printedBodies.flat())
          expect(validFact(body), `${file}: ${JSON.stringify(body)}`).toEqual([]);
        for (const [index, step] of steps.entries()) {
          const sends = (step.expect as { sends?: number } | undefined)?.sends;
          if (sends !== undefined) expect(printedBodies[index], `${file} step ${index}`).toHaveLength(sends);
        }
      },
    );
  },
);

describe('npm run facts, one Rollout at a clock', () => {
  const rollout = (status: Json) =>
    stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: {
        name: 'api',
        namespace: 'baggage-api',
        generation: 3,
        uid: 'u-1',
        labels: { 'hangar.io/release-tracked': 'true' },
        annotations: { 'hangar.io/release-id': 'rel-9' },
      },
      spec: { template: { spec: { containers: [{ name: 'api', image: 'reg/api:2.0.0' }] } } },
      status,
    });
  /** Two YAML documents' texts as the items of one YAML list. */
  const yamlList = (items: readonly string[]) => items.map((item) => `- ${item.replace(/\n/g, '\n  ')}`).join('\n');

  it('explains a workloadRef Rollout whose status has not caught up with its Deployment', async () => {
    const stale = rollout({ phase: 'Healthy', observedGeneration: '3', workloadObservedGeneration: '4' })
      .replace(
        'hangar.io/release-id: rel-9',
        'hangar.io/release-id: rel-9\n    rollout.argoproj.io/workload-generation: "5"',
      )
      .replace(
        /spec:\n {2}template:.*\n(?: {4,}.*\n)*/,
        'spec:\n  workloadRef: { apiVersion: apps/v1, kind: Deployment, name: api }\n',
      );
    const dir = clusterDir({ 'workload.yaml': stale });
    expect(stale).toContain('workloadRef');
    expect(await factsJson(['--cluster', 'prod', '--rollout', join(dir, 'workload.yaml')])).toEqual([
      expect.objectContaining({
        sent: false,
        why:
          'the condition is false: stale workload: the controller has not observed the workloadRef ' +
          'workload\'s generation yet (workload generation "5", status.workloadObservedGeneration "4")',
      }),
    ]);
  });

  it('explains a stale status, a missing label and a repeat in the same bucket', async () => {
    const sameState = rollout({ phase: 'Healthy', observedGeneration: '3', currentPodHash: 'bbb' });
    const dir = clusterDir({
      'stale.yaml': rollout({ phase: 'Healthy', observedGeneration: '2', currentPodHash: 'aaa' }),
      'states.yaml': yamlList([sameState, sameState]),
      'unlabelled.yaml': rollout({ phase: 'Healthy', observedGeneration: '3' }).replace(
        'hangar.io/release-tracked: "true"',
        'app: api',
      ),
    });
    const now = ['--now', '2026-12-01T09:00:00Z'];
    expect(await factsJson(['--cluster', 'prod', '--rollout', join(dir, 'stale.yaml'), ...now])).toEqual([
      expect.objectContaining({
        state: 0,
        trigger: 'glidepath-rollout-state',
        sent: false,
        why: expect.stringMatching(/^the condition is false: stale generation: .*"2".*"3"/),
      }),
    ]);
    const [first, second] = await factsJson(['--cluster', 'prod', '--rollout', join(dir, 'states.yaml'), ...now]);
    expect(first).toMatchObject({
      state: 0,
      sent: true,
      body: {
        cluster: 'prod',
        releaseId: 'rel-9',
        generation: 3,
        currentPodHash: 'bbb',
        images: [{ container: 'api', image: 'reg/api:2.0.0' }],
      },
    });
    expect(second).toEqual({
      state: 1,
      trigger: 'glidepath-rollout-state',
      sent: false,
      why: expect.stringMatching(
        /^already sent at 2026-12-01T09:00:00Z for this oncePer value \(3\/Healthy\/\/bbb\/false\/rel-9\/\d+\): the same state in the same time bucket$/,
      ),
    });
    const [unlabelled] = await factsJson(['--cluster', 'prod', '--rollout', join(dir, 'unlabelled.yaml'), ...now]);
    expect(unlabelled).toMatchObject({
      sent: false,
      why: "not selected: no subscription matches the object's labels (selector hangar.io/release-tracked=true)",
    });
  });

  it(
    'warns of a missing release id, a namespace the prune does not clean and a missing label (fails before: no ' +
      'warning)',
    ALSO_COVERED,
    async () => {
      const ok = rollout({ phase: 'Healthy', observedGeneration: '3', currentPodHash: 'bbb' });
      const dir = clusterDir({
        'ok.yaml': ok,
        'no-id.yaml': ok.replace(/\n {2}annotations:\n {4}hangar\.io\/release-id: rel-9/, ''),
        'elsewhere.yaml': ok.replace('namespace: baggage-api', 'namespace: payments'),
        'unlabelled.yaml': ok.replace(/hangar\.io\/release-tracked: "true"/, 'app: api'),
      });
      const warnings = async (file: string) => {
        await factsJson(['--cluster', 'prod', '--rollout', join(dir, file), '--now', '2026-12-01T09:00:00Z']);
        return printed.stderr;
      };
      expect(await warnings('ok.yaml')).toEqual([]);
      const [noId] = await factsJson([
        '--cluster',
        'prod',
        '--rollout',
        join(dir, 'no-id.yaml'),
        '--now',
        '2026-12-01T09:00:00Z',
      ]);
      expect(noId).toMatchObject({ sent: true, body: { releaseId: null } });
      expect(printed.stderr).toEqual([
        'warning: Rollout baggage-api/api has no hangar.io/release-id annotation: its facts carry "releaseId": ' +
          'null; annotate it with the release it deploys',
      ]);
      expect(await warnings('elsewhere.yaml')).toEqual([
        expect.stringMatching(
          /^warning: Rollout payments\/api is in namespace payments, which is not in tracked\.namespaces \(.*baggage-api.*\): the prune never cleans its notified annotation, .*; add payments to tracked\.namespaces$/,
        ),
      ]);
      expect(await warnings('unlabelled.yaml')).toEqual([
        'warning: Rollout baggage-api/api lacks the label hangar.io/release-tracked=true: on the cluster no ' +
          "fact is sent for it at all; add the label to the Rollout's own metadata (the pod template's labels do " +
          'not count)',
      ]);
    },
  );

  it('tells a new state from a heartbeat in a new time bucket', async () => {
    const start = rollout({ phase: 'Healthy', observedGeneration: '3', currentPodHash: 'bbb' });
    const dir = clusterDir({
      'steps.yaml': stringify({
        steps: [
          { name: 'healthy', time: '2026-12-01T09:00:00Z', object: parse(start) },
          { name: 'resync', after: '15m' },
          { name: 'scaled', after: '1m', patch: { metadata: { generation: 4 }, status: { observedGeneration: '4' } } },
        ],
      }),
    });
    const whys = (await factsJson(['--cluster', 'prod', '--rollout', join(dir, 'steps.yaml')])).map(
      (e) => `${e.sent} ${e.why}`,
    );
    expect(whys).toEqual([
      expect.stringMatching(
        /^true a new oncePer value \(3\/Healthy\/\/bbb\/false\/rel-9\/\d+\); nothing sent for this condition is recorded yet$/,
      ),
      expect.stringMatching(
        /^true heartbeat: the same state in a new time bucket \(3\/Healthy\/\/bbb\/false\/rel-9\/\d+; last sent at 2026-12-01T09:00:00Z\)$/,
      ),
      expect.stringMatching(
        /^true a new state \(4\/Healthy\/\/bbb\/false\/rel-9\/\d+\); the last one sent, at 2026-12-01T09:15:00Z, was 3\//,
      ),
    ]);
  });

  it('a fact lost at the start of a bucket comes again within the computed recovery bound, not a resync', async () => {
    const [prod] = loadClusters({ dir: join(ROOT, 'clusters'), cluster: PROD_FILE });
    const bound = recoveryBound(prod!.config.rollouts);
    expect(bound).toEqual({ resyncSeconds: 900, heartbeatBucketSeconds: 60, worstSeconds: 960 });
    // The new state is sent (and lost at the relay) at the first second of a bucket; the next resync falls on the
    // bucket's last second and finds the key; only the resync after that sends the state again.
    const lostAt = Date.UTC(2026, 11, 1, 10, 10, 0);
    expect((lostAt / 1000) % bound.heartbeatBucketSeconds).toBe(0);
    const start = rollout({ phase: 'Healthy', observedGeneration: '3', currentPodHash: 'bbb' });
    const dir = clusterDir({
      'steps.yaml': stringify({
        steps: [
          { name: 'lost', time: new Date(lostAt).toISOString(), object: parse(start) },
          { name: 'resync in the same bucket', after: `${bound.heartbeatBucketSeconds - 1}s` },
          { name: 'the resync after', after: `${bound.resyncSeconds}s` },
        ],
      }),
    });
    const sent = await factsJson(['--cluster', 'prod', '--rollout', join(dir, 'steps.yaml')]);
    expect(sent.map((e) => e.sent)).toEqual([true, false, true]);
    expect(sent[1]!.why).toMatch(/the same state in the same time bucket$/);
    const recoveredAfter = bound.heartbeatBucketSeconds - 1 + bound.resyncSeconds;
    expect(recoveredAfter).toBe(959);
    expect(recoveredAfter).toBeLessThan(bound.worstSeconds);
    expect(recoveredAfter).toBeGreaterThan(bound.resyncSeconds);
  });

  it('prints each state, the request line and the body for people', async () => {
    const file = join(SCENARIOS, 'rollouts/02-image-update-stale.yaml');
    printed.clear();
    expect(await main(['facts', '--cluster', 'prod', '--rollout', file])).toBe(0);
    const text = printed.stdout.join('\n');
    expect(text).toContain(
      'state 1 (update-applied-status-stale) at 2025-06-02T09:01:00Z: Rollout shop/hangar-api, generation 3',
    );
    expect(text).toContain('  glidepath-rollout-state: not sent: the condition is false: stale generation');
    expect(text).toContain('    POST http://192.168.1.78:30880/outcome/prod');
    expect(text).toMatch(/\n8 states, 4 facts sent$/);
  });

  it('masks a secret the Rollout carries into the bodies, for people and in --json', async () => {
    const token = `ghp_${'Zq9x'.repeat(9)}`;
    const password = 'S3cr3tPassw0rdXYZ';
    const text = rollout({ phase: 'Healthy', observedGeneration: '3', currentPodHash: 'bbb' })
      .replace('rel-9', password)
      .replace('uid: u-1', `uid: ${token}`);
    const file = join(clusterDir({ 'r.yaml': text }), 'r.yaml');
    const env = { ...process.env, DB_PASSWORD: password };
    for (const json of [[], ['--json']]) {
      printed.clear();
      const args = ['facts', '--cluster', 'prod', '--rollout', file, '--now', '2026-12-01T09:00:00Z', ...json];
      expect(await main(args, { ...REMEMBERED, env })).toBe(0);
      const out = printed.stdout.join('\n');
      expect(out).toContain('… 17 characters');
      expect(out).toContain('ghp_… 40 characters');
      for (const secret of [token, password, password.slice(0, 4)]) expect(out).not.toContain(secret);
      if (json.length > 0) expect(() => JSON.parse(out)).not.toThrow();
    }
  });

  it('shows a release id that is a git commit (40 hex digits), unless the environment holds it as secret', async () => {
    const commit = '3f2c9a1b7d4e5f60718293a4b5c6d7e8f9012345';
    const text = rollout({ phase: 'Healthy', observedGeneration: '3', currentPodHash: 'bbb' }).replace('rel-9', commit);
    const file = join(clusterDir({ 'r.yaml': text }), 'r.yaml');
    const args = ['facts', '--cluster', 'prod', '--rollout', file, '--now', '2026-12-01T09:00:00Z', '--json'];
    for (const [env, shown] of [
      [process.env, true],
      [{ ...process.env, GIT_TOKEN: commit }, false],
    ] as const) {
      printed.clear();
      expect(await main(args, { ...REMEMBERED, env })).toBe(0);
      const out = printed.stdout.join('\n');
      expect(JSON.parse(out)[0].body.releaseId).toBe(shown ? commit : '… 40 characters');
      expect(out.includes(commit)).toBe(shown);
    }
  });

  it("shows an Application's revision that is a git commit (helper-19: it was masked as a token)", async () => {
    const scenario = readFileSync(join(SCENARIOS, 'argocd/sync-failure/02-two-failures-then-succeeded.yaml'), 'utf8');
    const commit = 'aa11bb22cc33dd44ee55ff6677889900aabbccdd';
    const file = join(clusterDir({ 'app.yaml': scenario.replaceAll('9f1c2e7a4b', commit) }), 'app.yaml');
    printed.clear();
    const args = ['facts', '--cluster', 'prod', '--application', file, '--json'];
    expect(await main(args, REMEMBERED)).toBe(0);
    expect(printed.stdout.join('\n')).toContain(`"revision": "${commit}"`);
  });

  it('masks a secret with a quote or a backslash, which JSON writes escaped (helper-20)', async () => {
    const secret = 'Zq9"XvB2mK7p\\zz';
    const text = rollout({ phase: 'Healthy', observedGeneration: '3', currentPodHash: 'bbb' }).replace(
      'rel-9',
      JSON.stringify(secret),
    );
    const file = join(clusterDir({ 'r.yaml': text }), 'r.yaml');
    for (const json of [[], ['--json']]) {
      printed.clear();
      const args = ['facts', '--cluster', 'prod', '--rollout', file, '--now', '2026-12-01T09:00:00Z', ...json];
      expect(await main(args, { ...REMEMBERED, env: { ...process.env, DB_PASSWORD: secret } })).toBe(0);
      expect(printed.stdout.join('\n')).not.toMatch(/XvB2mK7p/);
    }
  });

  it('masks a commit that is part of a secret of the environment, and the secret beside it', async () => {
    // helper-19: the commit was taken out of each line before the secret was looked for, so the rest of it showed.
    const commit = '3f5e1c0a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f';
    const secret = `${commit}Zq9XvB2m`;
    const healthy = rollout({ phase: 'Healthy', observedGeneration: '3', currentPodHash: 'bbb' });
    const newer = rollout({ phase: 'Healthy', observedGeneration: '4', currentPodHash: 'ccc' })
      .replace('rel-9', secret)
      .replace('generation: 3', 'generation: 4');
    const text = `${healthy.replace('rel-9', commit)}\n---\n${newer}`;
    const file = join(clusterDir({ 'r.yaml': text }), 'r.yaml');
    for (const json of [[], ['--json']]) {
      printed.clear();
      const args = ['facts', '--cluster', 'prod', '--rollout', file, '--now', '2026-12-01T09:00:00Z', ...json];
      expect(await main(args, { ...REMEMBERED, env: { ...process.env, GITHUB_TOKEN: secret } })).toBe(0);
      const out = printed.stdout.join('\n');
      expect(out).toContain('… 48 characters');
      expect(out).not.toContain(commit.slice(0, 8));
    }
  });

  it('says a single Rollout state once, with no name it does not have (it printed "state 0 (state 0)")', async () => {
    const dir = clusterDir({
      'one.yaml': rollout({ phase: 'Healthy', observedGeneration: '3', currentPodHash: 'bbb' }),
    });
    printed.clear();
    expect(
      await main(['facts', '--cluster', 'prod', '--rollout', join(dir, 'one.yaml'), '--now', '2026-12-01T09:00:00Z']),
    ).toBe(0);
    expect(printed.stdout.join('\n')).toMatch(/^state 0 at 2026-12-01T09:00:00Z: Rollout baggage-api\/api/m);
  });
});

describe('npm run facts on bad input', () => {
  async function problems(args: string[], files: Record<string, string> = {}): Promise<string[]> {
    const dir = clusterDir(files);
    printed.clear();
    const code = await main(['facts', ...args.map((a) => (a.startsWith('@') ? join(dir, a.slice(1)) : a))], {
      ...REMEMBERED,
    });
    expect(code).toBe(2);
    expect(printed.stdout).toEqual([]);
    return printed.stderr.map((line) => line.replace(`${dir}/`, ''));
  }

  it('names the file and the field, and exits 2', async () => {
    expect(
      await problems(['--cluster', 'prod', '--rollout', '@d.yaml'], {
        'd.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a, namespace: b}\n',
      }),
    ).toEqual([
      'd.yaml: kind: is "Deployment", expected Rollout',
      'd.yaml: apiVersion: is "apps/v1", expected argoproj.io/v1alpha1',
      'd.yaml: metadata.generation: is null; the API server sets a whole number from 1 (copy it from kubectl ' +
        'get -o yaml)',
    ]);
    const [yamlError] = await problems(['--cluster', 'prod', '--rollout', '@bad.yaml'], {
      'bad.yaml': 'kind: Rollout\nmetadata: {name: a\n',
    });
    expect(yamlError).toMatch(/^bad\.yaml: line \d+, column \d+: not valid YAML: /);
    const [numeric] = await problems(['--cluster', 'prod', '--rollout', '@n.yaml'], {
      'n.yaml': stringify([
        {
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'Rollout',
          metadata: { name: 'a', namespace: 'b', generation: 2 },
          status: { observedGeneration: 2 },
        },
      ]),
    });
    expect(numeric).toBe(
      "n.yaml: [0].status.observedGeneration: is 2; a Rollout's observedGeneration is a string, as the " +
        'controller writes it (e.g. "3")',
    );
    const [app] = await problems([
      '--cluster',
      'prod',
      '--rollout',
      join(SCENARIOS, 'argocd/sync-failure/01-never-synced-and-unlabelled.yaml'),
    ]);
    expect(app).toMatch(
      /01-never-synced-and-unlabelled\.yaml: mode: is "argocd", a scenario for the other engine; run it with --application$/,
    );
    const [step] = await problems(['--cluster', 'prod', '--rollout', '@s.yaml'], {
      's.yaml': stringify({ steps: [{ time: 'yesterday' }] }),
    });
    expect(step).toBe('s.yaml: steps[0].time: "yesterday" is not an RFC 3339 time, e.g. 2025-06-02T09:00:00Z');
  });

  it('refuses an unknown cluster, a bad clock and a missing file', async () => {
    // Whatever clusters/ holds: adding a cluster (the README's steps) must not break this test.
    const known = loadClusters({ dir: join(ROOT, 'clusters') }).map((c) => c.config.name);
    expect(known).toEqual(expect.arrayContaining(['dev', 'prod']));
    expect(await problems(['--cluster', 'nope', '--rollout', 'x.yaml'])).toEqual([
      `--cluster: no cluster named "nope" in clusters/; known clusters: ${known.join(', ')}`,
    ]);
    expect((await problems(['--cluster', 'prod', '--rollout', 'x.yaml', '--now', 'noon']))[0]).toBe(
      '--now: "noon" is not an RFC 3339 time, e.g. 2026-12-01T09:00:00Z',
    );
    // A day the month lacks is refused, as Go's time.Parse refuses it, not carried into March (helper-23).
    expect((await problems(['--cluster', 'prod', '--rollout', 'x.yaml', '--now', '2026-02-30T09:00:00Z']))[0]).toBe(
      '--now: "2026-02-30T09:00:00Z" is not an RFC 3339 time, e.g. 2026-12-01T09:00:00Z',
    );
    expect((await problems(['--cluster', 'prod', '--rollout', '@missing.yaml']))[0]).toBe(
      'missing.yaml: cannot read the file (ENOENT); check the path',
    );
    // What the file holds is shown a few characters at a time, a token never: /proc/self/environ is a file too.
    const token = `ghp_${'Xy7'.repeat(12)}`;
    const planted = await problems(['--cluster', 'prod', '--rollout', '@t.yaml'], {
      't.yaml': `kind: ${token}\napiVersion: ${'v'.repeat(40)}\nmetadata: {name: a, namespace: b, generation: 1}\n`,
    });
    expect(planted).toEqual([
      't.yaml: kind: is a value that looks like a GitHub token (ghp_… 40 characters), expected Rollout',
      't.yaml: apiVersion: is "vvvvvvvvvvvv…" (40 characters), expected argoproj.io/v1alpha1',
    ]);
    // A FIFO would wait for a writer and /dev/zero never ends: neither is read.
    expect((await problems(['--cluster', 'prod', '--rollout', '/dev/zero']))[0]).toBe(
      '/dev/zero: it is a character device, not a file; give the path of a YAML file',
    );
    expect((await problems(['--cluster', 'prod']))[0]).toBe(
      '--rollout or --application: give exactly one FILE or NAMESPACE/NAME',
    );
  });
});
