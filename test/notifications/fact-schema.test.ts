import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { formattedLikeTheRepo } from '../../scripts/prettier-format';
import { currentFactDoc, FACT_DOCS } from '../../scripts/fact-docs';
import { bodyJsonSchema, FactContractError } from '../../src/notifications/body/fact-schema';
import { constant, field } from '../../src/notifications/body/json-body';
import {
  FACT_SCHEMA_FILE,
  factSchemaFile,
  ROLLOUT_FACT_CONTRACT,
  SYNC_FACT_CONTRACT,
} from '../../src/notifications/fact-contract';
import { rolloutFactBody } from '../../src/notifications/rollouts/rollout-fact';
import { validFact } from '../../e2e/lib/fact-schema';

const ROOT = join(import.meta.dirname, '../..');

describe('the fact contract as a JSON Schema (schema/glidepath.fact.v1.json)', () => {
  it('is current (npm run docs writes it), and so are the field tables of the docs', async () => {
    expect(readFileSync(join(ROOT, FACT_SCHEMA_FILE), 'utf8')).toBe(factSchemaFile());
    for (const { doc, contract } of FACT_DOCS) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      expect(text, doc).toBe(await formattedLikeTheRepo(doc, currentFactDoc(doc, text, contract)));
    }
  });

  it('is shipped in the package and named in the docs', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(manifest.files).toContain(`${FACT_SCHEMA_FILE.split('/')[0]}/`);
    for (const { doc } of FACT_DOCS) expect(readFileSync(join(ROOT, doc), 'utf8'), doc).toContain(FACT_SCHEMA_FILE);
  });

  it('accepts a fact of each source and refuses one with a field missing, added or of the wrong type', () => {
    const rollout = {
      schema: 'glidepath.fact/v1',
      source: 'argo-rollouts',
      kind: 'rollout-state',
      cluster: 'prod',
      rollout: { namespace: 'shop', name: 'api', uid: 'u-1' },
      releaseId: 'rel-1',
      generation: 3,
      observedGeneration: '3',
      workloadGeneration: null,
      workloadObservedGeneration: null,
      phase: 'Healthy',
      message: null,
      currentStepIndex: 2,
      currentPodHash: '5d8f7c9b6',
      abort: false,
      images: [{ container: 'api', image: 'reg/api:1.0' }],
      workloadRef: null,
      status: { phase: 'Healthy' },
    };
    expect(validFact(rollout)).toEqual([]);
    const { releaseId: _dropped, ...missing } = rollout;
    expect(validFact(missing)).toContainEqual(expect.stringMatching(/must have required property 'releaseId'/));
    expect(validFact({ ...rollout, extra: 1 })).not.toEqual([]);
    expect(validFact({ ...rollout, generation: '3' })).not.toEqual([]);
    expect(validFact({ ...rollout, source: 'argocd' })).not.toEqual([]);
    const sync = {
      schema: 'glidepath.fact/v1',
      source: 'argocd',
      kind: 'sync-retry',
      cluster: 'prod',
      application: { namespace: 'argocd-apps', name: 'shop', uid: 'u-2' },
      project: 'default',
      destination: { server: 'https://kubernetes.default.svc', name: null, namespace: 'shop' },
      releaseId: null,
      labels: { 'hangar.io/release-tracked': 'true' },
      phase: 'Running',
      message: 'one or more objects failed to apply',
      startedAt: '2026-12-01T10:00:00Z',
      finishedAt: null,
      retryCount: 1,
      retryLimit: 5,
      automated: true,
      revision: 'abc',
      revisions: null,
    };
    expect(validFact(sync)).toEqual([]);
    expect(validFact({ ...sync, kind: 'sync-succeeded' })).not.toEqual([]);
  });

  it('covers every field of the bodies: a field without a type, or a type without a field, is an error', () => {
    const body = rolloutFactBody('prod');
    const grown = { ...body, fields: { ...body.fields, replicas: field(['status', 'replicas']) } };
    expect(() => bodyJsonSchema(grown, ROLLOUT_FACT_CONTRACT, '')).toThrow(
      new FactContractError(
        'fact field replicas has no type: add it to src/notifications/fact-contract.ts, beside the others',
      ),
    );
    const shrunk = { ...body, fields: { schema: constant('x') } };
    expect(() => bodyJsonSchema(shrunk, ROLLOUT_FACT_CONTRACT, '')).toThrow(/types fields the body does not have/);
    expect(Object.keys(SYNC_FACT_CONTRACT)).toContain('revisions');
  });

  it('compiles under strict Ajv (draft 2020-12)', () => {
    expect(() => new Ajv2020({ strict: true }).compile(JSON.parse(factSchemaFile()) as object)).not.toThrow();
  });
});
