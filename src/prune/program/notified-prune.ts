/**
 * The prune program: the prune CronJob's one container runs it (bundled into its ConfigMap by
 * scripts/build-prune-program.mjs). For every tracked namespace it lists the release-tracked Rollouts, a page at a
 * time, and removes glidepath's keys from each notified annotation (src/notifications/notified-keys.ts), every
 * other key kept byte for byte. Each write is a JSON merge patch that carries the resourceVersion it was computed
 * from: a write by the controller in between makes the API server answer 409 Conflict, and the Rollout is read
 * again and the keys computed anew, so no key the controller wrote is lost.
 *
 * Node built-ins only; the API calls are `list` and `patch` (a conflict re-reads with a list by name), which is all
 * the Role grants.
 */
import type { PruneKeys } from '../../config/prune-veridor-schema';
import { ownedKeyTest, pruneNotified, type OwnedKeySuffix } from '../../notifications/notified-keys';

/** prune.json in the ConfigMap: what the chart renders (src/constructs/prune-cron-job.ts). */
export interface PruneProgramConfig {
  readonly namespaces: readonly string[];
  /** Label selector of the tracked Rollouts. */
  readonly selector: string;
  readonly annotation: string;
  readonly keys: PruneKeys;
  readonly owned: readonly OwnedKeySuffix[];
  /** Rollouts per list page: memory stays bounded whatever a namespace holds. */
  readonly pageSize: number;
  /** Namespaces pruned at the same time. */
  readonly concurrency: number;
  /** Tries of one Rollout's patch (the first and the retries after a 409). */
  readonly attempts: number;
}

export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** The two calls the program makes. */
export interface PruneApi {
  get(path: string): Promise<ApiAnswer>;
  patch(path: string, body: unknown): Promise<ApiAnswer>;
}

export interface PruneTotals {
  namespaces: number;
  rollouts: number;
  patched: number;
  removedKeys: number;
  keptKeys: number;
  conflicts: number;
  unreadable: number;
  failedNamespaces: string[];
}

interface RolloutItem {
  readonly metadata: {
    readonly name: string;
    readonly namespace: string;
    readonly resourceVersion: string;
    readonly annotations?: Record<string, string>;
  };
}

interface RolloutList {
  readonly items: readonly RolloutItem[];
  readonly metadata?: { readonly continue?: string };
}

const ROLLOUTS = '/apis/argoproj.io/v1alpha1/namespaces';

export async function runPrune(
  config: PruneProgramConfig,
  api: PruneApi,
  log: (line: string) => void,
): Promise<PruneTotals> {
  const owned = ownedKeyTest(config.owned);
  const totals: PruneTotals = {
    namespaces: 0,
    rollouts: 0,
    patched: 0,
    removedKeys: 0,
    keptKeys: 0,
    conflicts: 0,
    unreadable: 0,
    failedNamespaces: [],
  };
  const queue = [...config.namespaces];
  const worker = async (): Promise<void> => {
    for (let namespace = queue.shift(); namespace !== undefined; namespace = queue.shift()) {
      try {
        await pruneNamespace(namespace);
        totals.namespaces++;
      } catch (error) {
        totals.failedNamespaces.push(namespace);
        log(`${namespace}: failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };

  async function pruneNamespace(namespace: string): Promise<void> {
    let next: string | undefined;
    do {
      const query = new URLSearchParams({ labelSelector: config.selector, limit: String(config.pageSize) });
      if (next) query.set('continue', next);
      const list = await listed(`${ROLLOUTS}/${namespace}/rollouts?${query}`);
      for (const item of list.items) {
        totals.rollouts++;
        await pruneRollout(item);
      }
      next = list.metadata?.continue || undefined;
    } while (next);
  }

  async function listed(path: string): Promise<RolloutList> {
    const answer = await api.get(path);
    if (answer.status !== 200) throw new Error(`list ${path}: HTTP ${answer.status} ${brief(answer.body)}`);
    return answer.body as RolloutList;
  }

  async function pruneRollout(first: RolloutItem): Promise<void> {
    const { namespace, name } = first.metadata;
    let item: RolloutItem | undefined = first;
    for (let attempt = 1; item !== undefined; attempt++) {
      const annotations = item.metadata.annotations ?? {};
      const value = annotations[config.annotation];
      if (value === undefined) return;
      const pruned = pruneNotified(value, config.keys, owned);
      if (pruned.unreadable) {
        totals.unreadable++;
        if (config.keys !== 'all') {
          log(`${namespace}/${name}: the annotation is not a JSON object; left as it is`);
          return;
        }
        log(`${namespace}/${name}: the annotation is not a JSON object; removed whole (keys: all)`);
      }
      if (pruned.value === value) {
        totals.keptKeys += pruned.kept;
        return;
      }
      const patch = {
        metadata: {
          resourceVersion: item.metadata.resourceVersion,
          annotations: { [config.annotation]: pruned.value ?? null },
        },
      };
      const answer = await api.patch(`${ROLLOUTS}/${namespace}/rollouts/${name}`, patch);
      if (answer.status === 200) {
        totals.patched++;
        totals.removedKeys += pruned.removed;
        totals.keptKeys += pruned.kept;
        log(`${namespace}/${name}: removed ${pruned.removed} keys, kept ${pruned.kept}`);
        return;
      }
      if (answer.status === 404) return; // deleted since the list
      if (answer.status !== 409)
        throw new Error(`patch ${namespace}/${name}: HTTP ${answer.status} ${brief(answer.body)}`);
      totals.conflicts++;
      if (attempt >= config.attempts) throw new Error(`${namespace}/${name}: still in conflict after ${attempt} tries`);
      log(`${namespace}/${name}: changed since it was read (409 Conflict); reading it again`);
      const query = new URLSearchParams({ labelSelector: config.selector, fieldSelector: `metadata.name=${name}` });
      item = (await listed(`${ROLLOUTS}/${namespace}/rollouts?${query}`)).items[0];
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, config.concurrency) }, worker));
  return totals;
}

function brief(body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return (text ?? '').slice(0, 300);
}

/** Where the program finds the API server and its credentials: in the pod, the ServiceAccount's mounted token. */
export interface InClusterEnv {
  readonly KUBERNETES_SERVICE_HOST?: string;
  readonly KUBERNETES_SERVICE_PORT?: string;
  /** Other files than the mounted ServiceAccount's (the e2e runs the program outside a pod). */
  readonly PRUNE_TOKEN_FILE?: string;
  readonly PRUNE_CA_FILE?: string;
}

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The API over HTTPS with the pod's ServiceAccount token (read again per request: the kubelet rotates it). */
export async function inClusterApi(env: InClusterEnv): Promise<PruneApi> {
  const { readFileSync } = await import('node:fs');
  const https = await import('node:https');
  const host = env.KUBERNETES_SERVICE_HOST;
  if (!host) throw new Error('KUBERNETES_SERVICE_HOST is not set: the program runs in a pod');
  const port = Number(env.KUBERNETES_SERVICE_PORT ?? 443);
  const ca = readFileSync(env.PRUNE_CA_FILE ?? `${SERVICE_ACCOUNT}/ca.crt`);
  const tokenFile = env.PRUNE_TOKEN_FILE ?? `${SERVICE_ACCOUNT}/token`;
  const agent = new https.Agent({ keepAlive: true, maxSockets: 8, ca });
  const call = (method: string, path: string, body?: unknown): Promise<ApiAnswer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const request = https.request(
        {
          host: host.includes(':') ? `[${host}]` : host,
          port,
          path,
          method,
          agent,
          timeout: 30_000,
          headers: {
            Authorization: `Bearer ${readFileSync(tokenFile, 'utf8').trim()}`,
            Accept: 'application/json',
            ...(payload === undefined
              ? {}
              : { 'Content-Type': 'application/merge-patch+json', 'Content-Length': Buffer.byteLength(payload) }),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // an error page that is not JSON: kept as text
            }
            resolve({ status: response.statusCode ?? 0, body: parsed });
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
      request.on('error', reject);
      request.end(payload);
    });
  return { get: (path) => call('GET', path), patch: (path, body) => call('PATCH', path, body) };
}

/** `node notified-prune.mjs <prune.json>`: exits 1 when a namespace failed (the Job retries), 0 otherwise. */
export async function main(argv: readonly string[], env: InClusterEnv): Promise<number> {
  const { readFileSync } = await import('node:fs');
  const file = argv[0];
  if (!file) {
    console.error('usage: notified-prune.mjs <prune.json>');
    return 2;
  }
  const config = JSON.parse(readFileSync(file, 'utf8')) as PruneProgramConfig;
  const started = Date.now();
  const totals = await runPrune(config, await inClusterApi(env), (line) => console.log(line));
  const { failedNamespaces, ...counts } = totals;
  console.log(
    JSON.stringify({ keys: config.keys, ...counts, failed: failedNamespaces, seconds: (Date.now() - started) / 1000 }),
  );
  return failedNamespaces.length > 0 ? 1 : 0;
}
