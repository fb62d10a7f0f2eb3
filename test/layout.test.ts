/** The shape of src/: folders import one way, and no file grows past what one reads in one sitting. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALSO_COVERED } from './helpers/also-covered';

const SRC = join(import.meta.dirname, '..', 'src');
const MAX_LINES = 300;

const files = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts'))
  .map((e) => join(e.parentPath, e.name));

/** unit -> the units it imports, each with one file that does it (for the message). */
type Graph = ReadonlyMap<string, ReadonlyMap<string, string>>;

/**
 * The relative module paths a source file names: `import`, `import type`, `export ... from`, a bare `import '...'`
 * and `import('...')` (a type position included).
 */
function importedPaths(source: string): string[] {
  return [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
}

/**
 * The unit of a path inside `root`: its first folder (notifications/model/x.ts is notifications), or the file itself
 * when it lies directly in `root` (cli.ts counts on its own). Outside `root`: undefined.
 */
function unitIn(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (rel.startsWith('..')) return undefined;
  const [first, ...rest] = rel.split(sep);
  return rest.length === 0 ? rel : first;
}

/** The import graph between the units of `root` (src/, or one of its folders), from the files under it. */
function importGraph(root: string): Graph {
  const graph = new Map<string, Map<string, string>>();
  for (const file of files.filter((f) => unitIn(root, f) !== undefined)) {
    const from = unitIn(root, file)!;
    for (const path of importedPaths(readFileSync(file, 'utf8'))) {
      const to = unitIn(root, resolveImport(file, path));
      if (to === undefined || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      edges.set(to, relative(SRC, file));
      graph.set(from, edges);
    }
  }
  return graph;
}

const sourceFiles = new Set(files);

/** The file an import names (`./x` is x.ts), or the path itself (a JSON file, a folder outside src/). */
function resolveImport(file: string, path: string): string {
  const base = resolve(dirname(file), path.replace(/\.(ts|js)$/, ''));
  return sourceFiles.has(`${base}.ts`) ? `${base}.ts` : base;
}

/** Every unit from which an import path leads back to itself, with that path. */
function cycles(graph: Graph): string[] {
  const found: string[] = [];
  for (const start of graph.keys()) {
    const seen = new Set<string>();
    const walk = (unit: string, path: string[]): void => {
      for (const [next, via] of graph.get(unit) ?? []) {
        const step = [...path, `${next} (${via})`];
        if (next === start) found.push(`${start} -> ${step.join(' -> ')}`);
        else if (!seen.has(next)) {
          seen.add(next);
          walk(next, step);
        }
      }
    };
    walk(start, []);
  }
  return found;
}

const graphOf = (edges: Record<string, string[]>): Graph =>
  new Map(Object.entries(edges).map(([from, tos]) => [from, new Map(tos.map((to) => [to, `${from}/x.ts`]))]));

const topFolders = [...new Set(files.map((f) => unitIn(SRC, f)!))].filter((unit) => !unit.endsWith('.ts'));

describe('src/ layout', () => {
  it('reads every form of import, type-only and re-exports included', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from '../b/b';",
      "export { c } from './c';",
      "export type { D } from '../d';",
      "export * from './e';",
      "import './f';",
      "type G = import('../g').G;",
      'import {\n  h,\n} from "./h";',
      "import { i } from 'node:fs';",
    ].join('\n');
    expect(importedPaths(source)).toEqual(['./a', '../b/b', './c', '../d', './e', './f', '../g', './h']);
  });

  it('finds a planted cycle, a long one included, and none in a one-way graph', () => {
    expect(cycles(graphOf({ commands: ['config', 'notifications'], notifications: ['config'] }))).toEqual([]);
    expect(cycles(graphOf({ config: ['notifications'], notifications: ['config'] }))).toEqual([
      'config -> notifications (config/x.ts) -> config (notifications/x.ts)',
      'notifications -> config (notifications/x.ts) -> notifications (config/x.ts)',
    ]);
    expect(cycles(graphOf({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toHaveLength(3);
  });

  it('counts a subfolder as its top-level folder and a file in src/ on its own', ALSO_COVERED, () => {
    const graph = importGraph(SRC);
    expect(graph.get('commands')?.has('config')).toBe(true);
    expect(graph.get('verify')?.has('notifications')).toBe(true); // verify/notifications/*.ts -> notifications/model
    expect(graph.get('cli.ts')?.has('commands')).toBe(true);
    expect([...graph.keys()].some((unit) => unit.includes('/'))).toBe(false);
    // Inside a folder without subfolders, each file is a unit: ship.ts imports the planner and its types.
    expect([...(importGraph(join(SRC, 'gitops')).get('ship.ts')?.keys() ?? [])]).toEqual(
      expect.arrayContaining(['plan.ts', 'plan-types.ts']),
    );
  });

  it('no top-level folder of src/ imports one that imports it back, type imports included', () => {
    expect(cycles(importGraph(SRC))).toEqual([]);
  });

  it('config/ validates the cluster file and knows nothing of the notifications engine', () => {
    expect([...(importGraph(SRC).get('config')?.keys() ?? [])].filter((unit) => unit === 'notifications')).toEqual([]);
  });

  it.each(topFolders)('no subfolder or file of %s/ imports one that imports it back', (folder) => {
    expect(cycles(importGraph(join(SRC, folder)))).toEqual([]);
  });

  it(`no file is over ${MAX_LINES} lines`, () => {
    const long = files
      .map((f) => [relative(SRC, f), readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, n]) => n > MAX_LINES);
    expect(long).toEqual([]);
  });
});
