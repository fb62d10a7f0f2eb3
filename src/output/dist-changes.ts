/** What writing rendered clusters into an output folder would change, read without writing anything. */
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RenderedCluster } from '../render/render-cluster';
import { missingFolders } from './out-dir-fs';
import { RETIRED_NAME, STAGED_NAME } from './out-dir-names';
import { isRetiredFolder, readRecord, readSources, refuseForeignEntries } from './out-dir-record';
import { writtenRecord } from './swap-journal';
import { holdsFile, isWrittenFolder } from './as-written';
import { outputFolders, type WriteScope } from './write-dist';

/**
 * One line per file that would be added, changed or removed, e.g. `changed dist/prod/x.k8s.yaml`: changed when synth
 * would write it again (other bytes, or not as a fresh write leaves it or its folder: mode, owner, group or links).
 */
export function distChanges(
  outDir: string,
  renderedClusters: readonly RenderedCluster[],
  scope: WriteScope,
  source?: string,
): string[] {
  // Each folder on its own: the manifests, and the helm values of a cluster that has any.
  const clusters = outputFolders(renderedClusters);
  // What synth would refuse (a file as --out, a folder holding files glidepath did not write), --check refuses too.
  const exists = missingFolders(outDir, 'the output folder').length === 0;
  const recorded = exists ? readRecord(outDir) : {};
  const sources = exists ? readSources(outDir) : {};
  if (exists) refuseForeignEntries(outDir, writtenRecord(outDir));
  const changes: string[] = [];
  const leftovers = leftoverLinks(outDir);
  for (const cluster of clusters) {
    const dir = join(outDir, cluster.name);
    const present = new Set(filesIn(dir));
    // A folder not as synth writes it (another mode, say) is written again, and each of its files with it.
    const keptFolder = present.size === 0 || isWrittenFolder(dir);
    for (const file of cluster.files) {
      const path = join(dir, file.path);
      if (!present.delete(file.path)) changes.push(`added   ${path}`);
      else if (!keptFolder || !holdsFile(path, file.content, leftovers)) changes.push(`changed ${path}`);
    }
    for (const stale of [...present].sort()) changes.push(`removed ${join(dir, stale)}`);
  }
  const rendered = new Set(clusters.map((c) => c.name));
  const names = renderedClusters.map((c) => c.name);
  const retired = (name: string) => isRetiredFolder(name, scope, source, sources, names);
  for (const name of clusterFolders(outDir).filter(
    (n) => !rendered.has(n) && Object.hasOwn(recorded, n) && retired(n),
  )) {
    for (const stale of filesIn(join(outDir, name))) changes.push(`removed ${join(outDir, name, stale)}`);
  }
  return changes;
}

/**
 * How many links each file has in the staged and retired folders a killed synth left: the next synth removes them
 * before it looks at the cluster folders, so those links do not make a file "changed".
 */
function leftoverLinks(outDir: string): Map<number, number> {
  const links = new Map<number, number>();
  if (!existsSync(outDir) || !statSync(outDir).isDirectory()) return links;
  for (const entry of readdirSync(outDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || !(STAGED_NAME.test(entry.name) || RETIRED_NAME.test(entry.name))) continue;
    for (const file of readdirSync(join(outDir, entry.name), { withFileTypes: true })) {
      if (!file.isFile()) continue;
      const { ino } = lstatSync(join(outDir, entry.name, file.name));
      links.set(ino, (links.get(ino) ?? 0) + 1);
    }
  }
  return links;
}

/** Entries whose name starts with a dot are the writer's own (temporary folders, markers), never rendered. */
function filesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}

function clusterFolders(outDir: string): string[] {
  if (!existsSync(outDir) || !statSync(outDir).isDirectory()) return [];
  return readdirSync(outDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}
