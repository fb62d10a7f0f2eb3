/** The shape of src/gitops: no file imports a file that leads back to it (type imports count), none over 300 lines. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const GITOPS = join(import.meta.dirname, '..', '..', 'src', 'gitops');
const MAX_LINES = 300;
const files = readdirSync(GITOPS).filter((f) => f.endsWith('.ts'));

/** file -> the files of src/gitops it imports, `import type` and `export ... from` included. */
function importGraph(): Map<string, string[]> {
  return new Map(
    files.map((file) => {
      const text = readFileSync(join(GITOPS, file), 'utf8');
      const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'\.\/([^']+)'/g)].map((m) => `${m[1]}.ts`);
      return [file, [...new Set(targets)].filter((t) => files.includes(t))];
    }),
  );
}

/** Each import path that leads from a file back to itself, once per cycle (from its smallest file name). */
function cycles(graph: Map<string, string[]>): string[] {
  const found = new Set<string>();
  for (const start of graph.keys()) {
    const walk = (file: string, path: string[], seen: Set<string>): void => {
      for (const next of graph.get(file) ?? []) {
        if (next === start) {
          const cycle = [...path, next];
          const smallest = cycle.indexOf([...cycle.slice(0, -1)].sort()[0]!);
          const turned = [...cycle.slice(smallest, -1), ...cycle.slice(0, smallest)];
          found.add([...turned, turned[0]].join(' -> '));
        } else if (!seen.has(next)) {
          seen.add(next);
          walk(next, [...path, next], seen);
        }
      }
    };
    walk(start, [start], new Set());
  }
  return [...found].sort();
}

describe('src/gitops layout', () => {
  it('no import cycle between its files, type imports included', () => {
    const graph = importGraph();
    // The graph is read at all: ship.ts imports the planner, and the planner's types.
    expect(graph.get('ship.ts')).toEqual(expect.arrayContaining(['plan.ts', 'plan-types.ts']));
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
  });

  it(`no file is over ${MAX_LINES} lines`, () => {
    const long = files
      .map((f) => [f, readFileSync(join(GITOPS, f), 'utf8').split('\n').length - 1] as const)
      .filter(([, n]) => n > MAX_LINES);
    expect(long).toEqual([]);
  });
});
