/**
 * An in-memory API server for the prune program (src/prune/program/): `list` of Rollouts by namespace, label
 * selector, `metadata.name` field selector and pages; JSON merge `patch` with the resourceVersion precondition the
 * real API server applies (409 Conflict when it is not the object's). `beforePatch` lets a test write as the
 * controller does between the program's read and its write.
 */
import type { ApiAnswer, PruneApi } from '../../src/prune/program/notified-prune';

type Json = Record<string, any>;

export interface FakeRolloutsApi extends PruneApi {
  readonly rollouts: Json[];
  readonly requests: string[];
  beforePatch?: (rollout: Json) => void;
}

/** Sets `metadata.annotations[key]` as the controller would (a new resourceVersion). */
export function controllerWrite(rollout: Json, key: string, value: string): void {
  rollout.metadata.annotations = { ...rollout.metadata.annotations, [key]: value };
  rollout.metadata.resourceVersion = String(Number(rollout.metadata.resourceVersion ?? 0) + 1);
}

function mergePatch(target: Json, patch: Json): Json {
  const out: Json = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (typeof value === 'object' && !Array.isArray(value)) out[key] = mergePatch(out[key] ?? {}, value);
    else out[key] = value;
  }
  return out;
}

export function fakeRolloutsApi(initial: readonly Json[]): FakeRolloutsApi {
  const rollouts: Json[] = initial.map((r, i) => ({
    ...r,
    metadata: { ...r.metadata, resourceVersion: r.metadata.resourceVersion ?? String(100 + i) },
  }));
  const requests: string[] = [];
  const api: FakeRolloutsApi = {
    rollouts,
    requests,
    async get(path: string): Promise<ApiAnswer> {
      requests.push(`list ${path}`);
      const url = new URL(path, 'https://api.test');
      const [, , , , , namespace, resource] = url.pathname.split('/');
      if (resource !== 'rollouts') return { status: 404, body: 'not found' };
      const [labelKey, labelValue] = (url.searchParams.get('labelSelector') ?? '').split('=');
      const name = url.searchParams.get('fieldSelector')?.replace(/^metadata\.name=/, '');
      const matching = rollouts.filter(
        (r) =>
          r.metadata.namespace === namespace &&
          r.metadata.labels?.[labelKey!] === labelValue &&
          (name === undefined || r.metadata.name === name),
      );
      const limit = Number(url.searchParams.get('limit') ?? matching.length) || matching.length;
      const from = Number(url.searchParams.get('continue') ?? 0);
      const page = matching.slice(from, from + limit);
      const next = from + limit < matching.length ? String(from + limit) : undefined;
      return { status: 200, body: { items: structuredClone(page), metadata: next ? { continue: next } : {} } };
    },
    async patch(path: string, body: Json): Promise<ApiAnswer> {
      requests.push(`patch ${path}`);
      const [, , , , , namespace, , name] = path.split('/');
      const index = rollouts.findIndex((r) => r.metadata.namespace === namespace && r.metadata.name === name);
      if (index < 0) return { status: 404, body: 'not found' };
      api.beforePatch?.(rollouts[index]!);
      const current = rollouts[index]!;
      const wanted = body.metadata?.resourceVersion;
      if (wanted !== undefined && wanted !== current.metadata.resourceVersion)
        return { status: 409, body: { reason: 'Conflict' } };
      const patched = mergePatch(current, body);
      patched.metadata.resourceVersion = String(Number(current.metadata.resourceVersion) + 1);
      rollouts[index] = patched;
      return { status: 200, body: patched };
    },
  };
  return api;
}
