/** launch in a process of its own: it must not keep that process alive. Bundles a child: npm run test:slow. */
import { describe, expect, it } from 'vitest';
import { bundleEntry, runChild } from './output/helpers/child-processes';

describe('launch', () => {
  it('does not keep a process alive once its commands are done', async () => {
    const child = await runChild(
      await bundleEntry(new URL('./helpers/launch-child.ts', import.meta.url).pathname),
      [],
      { timeout: 10_000 },
    );
    expect(child).toMatchObject({ code: 0, signal: null });
  });
});
