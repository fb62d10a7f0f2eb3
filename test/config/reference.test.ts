/**
 * docs/cluster-file.md is the schema's reference, with a row for every field and every default (that it is current:
 * test/docs/generated-docs.slow.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceRows } from '../../src/config/reference';
import { clusterConfigSchema } from '../../src/clusters';
import { validClusterFile } from '../helpers/cluster-files';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the cluster file reference', () => {
  it('has a row for every field, and each default is the one the schema applies', () => {
    const rows = referenceRows();
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.map((r) => r.field)).toEqual(
      expect.arrayContaining(['relay.ip', 'argocd.context', 'veridor.configMap', 'prune.schedule']),
    );
    const parsed = clusterConfigSchema.parse(
      validClusterFile({ argocd: { namespace: 'argocd-apps' } }),
    ) as unknown as Record<string, unknown>;
    for (const row of rows.filter((r) => /^`[^`<]+`$/.test(r.default) && !r.default.includes('.'))) {
      const value = row.field
        .split('.')
        .reduce<unknown>((object, key) => (object as Record<string, unknown>)[key], parsed);
      expect(`\`${typeof value === 'string' ? value : JSON.stringify(value)}\``, row.field).toBe(row.default);
    }
  });

  it('the README points to it', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('](docs/cluster-file.md)');
  });
});
