import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orphanSnapshots, removeSnapshots, staleSnapshots } from './stale-snapshots';

function snapshotsRoot(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'glidepath-snapshots-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('npm run test:update removes only snapshot files', () => {
  it('a stale snapshot goes; a note beside it stays', () => {
    const root = snapshotsRoot({ 'prod/a.k8s.yaml': 'a', 'prod/gone.k8s.yaml': 'b', 'prod/NOTES.md': 'mine' });
    const stale = staleSnapshots(join(root, 'prod'), new Set(['a.k8s.yaml']));
    expect(stale).toEqual([join(root, 'prod/gone.k8s.yaml')]);
    removeSnapshots(stale);
    expect(existsSync(join(root, 'prod/gone.k8s.yaml'))).toBe(false);
    expect(existsSync(join(root, 'prod/NOTES.md'))).toBe(true);
  });

  it("a removed cluster's folder loses its snapshots, and goes only when nothing else is left in it", () => {
    const root = snapshotsRoot({
      'old/kustomization.yaml': 'k',
      'old/a.k8s.yaml': 'a',
      'old/NOTES.md': 'mine',
      'older/kustomization.yaml': 'k',
      'prod/kustomization.yaml': 'k',
      'other-test/x.yaml': 'pinned by another test',
    });
    const orphans = orphanSnapshots(root, new Set(['prod']), 'kustomization.yaml');
    expect(orphans.sort()).toEqual(
      [
        join(root, 'old/a.k8s.yaml'),
        join(root, 'old/kustomization.yaml'),
        join(root, 'older/kustomization.yaml'),
      ].sort(),
    );
    expect(removeSnapshots(orphans)).toContain(`${join(root, 'older')}/`);
    expect(existsSync(join(root, 'older'))).toBe(false);
    expect(existsSync(join(root, 'old/NOTES.md'))).toBe(true);
    expect(existsSync(join(root, 'old/a.k8s.yaml'))).toBe(false);
    expect(existsSync(join(root, 'other-test/x.yaml'))).toBe(true);
  });
});
