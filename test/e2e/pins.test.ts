import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPONENTS } from '../../e2e/lib/versions';

const modules = join(import.meta.dirname, '..', '..', 'e2e', 'modules');

describe('e2e pins', () => {
  it.each(COMPONENTS.map((c) => [c.name, c] as const))(
    '%s: the build module requires exactly the pinned version',
    (_name, component) => {
      const goMod = readFileSync(join(modules, component.buildModule, 'go.mod'), 'utf8');
      const goSum = readFileSync(join(modules, component.buildModule, 'go.sum'), 'utf8');
      expect(goMod).toMatch(
        new RegExp(`^require ${component.module.replace(/[.]/g, '\\.')} ${component.version}$`, 'm'),
      );
      expect(goSum).toContain(`${component.module} ${component.version} h1:`);
    },
  );

  it('Kubernetes: every staging module is replaced by its v0.28.15 release', () => {
    const goMod = readFileSync(join(modules, 'kubernetes', 'go.mod'), 'utf8');
    const replaces = [...goMod.matchAll(/^\s+(k8s\.io\/\S+) => (k8s\.io\/\S+) (\S+)$/gm)];
    expect(replaces.length).toBe(30);
    for (const [, from, to, version] of replaces) expect([to, version]).toEqual([from, 'v0.28.15']);
  });
});
