/** `facts --rollout NAMESPACE/NAME` and `--application NAMESPACE/NAME`: the object read live, as a file's would be. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { loadClusters } from '../../src/clusters';
import { evaluateFacts } from '../../src/facts/evaluate';
import { loadConfigMapYaml } from '../../src/notifications/configmap/config-map';
import { ROLLOUTS_MODE } from '../../src/notifications/model/modes';
import { fileWithConfigMap } from '../../src/render/rendered-file';
import { renderOnce } from '../helpers/render-once';
import { capturePrintedLines } from '../helpers/console';
import { REMEMBERED } from '../helpers/remembered';
import { recordedKubectl } from '../live/harness';
import {
  API_VERSIONS,
  type Answer,
  forbidden,
  GET_API,
  json,
  metadata,
  notFound,
  trackedRollout,
} from '../live/recorded-prod';

const printed = capturePrintedLines();
const ROOT = join(import.meta.dirname, '../..');
const NOW = ['--now', '2026-12-01T09:00:00Z'];
const ROLLOUT = trackedRollout('baggage-api');
const APPLICATION = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: metadata('baggage-api', 'argocd-apps', {
    labels: { 'hangar.io/release-tracked': 'true' },
    annotations: { 'hangar.io/release-id': 'rel-2026.11.30-1' },
  }),
  spec: { project: 'hangar' },
  status: {
    operationState: { phase: 'Failed', finishedAt: '2026-12-01T08:59:00Z', message: 'one or more objects failed' },
    sync: { revision: 'abc1234' },
  },
};
const ANSWERS: Record<string, Answer> = {
  [GET_API]: API_VERSIONS,
  'config current-context': { stdout: 'prod-admin\n' },
  'get rollouts.argoproj.io baggage-service -n baggage-api -o json': json(ROLLOUT),
  'get applications.argoproj.io baggage-api -n argocd-apps -o json': json(APPLICATION),
  'get rollouts.argoproj.io gone -n baggage-api -o json': notFound('rollouts.argoproj.io', 'gone'),
  'get rollouts.argoproj.io secret -n gate-api -o json': forbidden('rollouts.argoproj.io', 'secret', 'gate-api'),
};

async function facts(args: readonly string[]) {
  printed.clear();
  const calls: string[] = [];
  const code = await main(['facts', '--clusters', join(ROOT, 'clusters'), '--cluster', 'prod', ...args, ...NOW], {
    ...REMEMBERED,
    kubectl: recordedKubectl(ANSWERS, calls),
  });
  return { code, out: printed.stdout.join('\n'), err: printed.stderr.join('\n'), calls };
}

function saved(object: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'glidepath-facts-live-')), 'object.json');
  writeFileSync(file, JSON.stringify(object));
  return file;
}

describe('facts, the object read live', () => {
  it('reads the Rollout with kubectl get and says what a file of it says', async () => {
    const live = await facts(['--rollout', 'baggage-api/baggage-service', '--context', 'prod-admin', '--json']);
    expect(live.err).toBe('');
    expect(live.code).toBe(0);
    expect(live.calls).toEqual([
      '--context prod-admin get --raw /api --request-timeout=20s',
      '--context prod-admin get rollouts.argoproj.io baggage-service -n baggage-api -o json --request-timeout=20s',
    ]);
    expect(live.out).toBe((await facts(['--rollout', saved(ROLLOUT), '--json'])).out);
    expect(live.out).toContain('"sent": true');
  });

  it("takes the live Rollout's notified annotation into account: a state it records is not sent again", async () => {
    const { config } = loadClusters({ dir: join(ROOT, 'clusters'), cluster: 'prod' })[0]!;
    const manifest = fileWithConfigMap(renderOnce(config), ROLLOUTS_MODE.configMapName)!;
    const loaded = loadConfigMapYaml(manifest.content, ROLLOUTS_MODE.configMapName);
    const at = new Date('2026-12-01T09:00:00Z');
    const state = { name: 'once', object: ROLLOUT, at, pruneNotified: false };
    // The second state is the Rollout as the engine left it after sending: its annotation records the send.
    const afterSend = evaluateFacts(loaded, ROLLOUTS_MODE, [state, state])[1]!.object;
    ANSWERS['get rollouts.argoproj.io sent -n baggage-api -o json'] = json(afterSend);
    const live = await facts(['--rollout', 'baggage-api/sent', '--context', 'prod-admin']);
    expect(live.err).toBe('');
    expect(live.out).toContain('glidepath-rollout-state: not sent: already sent at 2026-12-01T09:00:00Z');
  });

  it('reads an Application the same way, in the current context without --context', async () => {
    const live = await facts(['--application', 'argocd-apps/baggage-api', '--json']);
    expect(live.err).toBe('');
    expect(live.calls.at(-1)).toBe(
      'get applications.argoproj.io baggage-api -n argocd-apps -o json --request-timeout=20s',
    );
    expect(live.out).toBe((await facts(['--application', saved(APPLICATION), '--json'])).out);
  });

  it('names the fix when the object is missing, unreadable, or not a NAMESPACE/NAME with --context', async () => {
    const missing = await facts(['--rollout', 'baggage-api/gone', '--context', 'prod-admin']);
    expect(missing.err).toContain(
      'Rollout baggage-api/gone (kubectl context prod-admin): not found; kubectl -n baggage-api get ' +
        'rollouts.argoproj.io lists those there',
    );
    expect(missing.code).toBe(2);
    const refused = await facts(['--rollout', 'gate-api/secret', '--context', 'prod-admin']);
    expect(refused.err).toContain('Rollout gate-api/secret (kubectl context prod-admin) cannot be read: forbidden');
    expect(refused.code).toBe(1);
    const file = await facts(['--rollout', saved(ROLLOUT), '--context', 'prod-admin']);
    expect(file.err).toContain('--rollout: with --context, give the Rollout as NAMESPACE/NAME');
    expect(file.code).toBe(2);
    expect(file.calls).toEqual([]);
  });
});
