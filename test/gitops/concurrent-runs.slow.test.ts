/** Two pr runs at once with the same render and their own caches (two CI jobs): both succeed, one change is opened. */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeScenarios, rendered, scenario } from './helpers/fixture';
import { branches, tempDir, tip } from './helpers/git-repos';

afterAll(closeScenarios);

const ROUNDS = 12;

describe('pr: two runs at once', () => {
  it(
    `${ROUNDS} rounds of two runs started together, each with its own cache: neither fails, and one pull ` +
      `request is open`,
    async () => {
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const s = await scenario();
        const run = (name: string) =>
          s.run({ cacheDir: join(tempDir('cache'), name), identity: { name, email: `${name}@example.test` } });
        const outcomes = await Promise.allSettled([run('job-a'), run('job-b')]);
        for (const outcome of outcomes)
          if (outcome.status === 'rejected') failures.push(`round ${round}: ${String(outcome.reason)}`);
        const results = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
        expect(s.api.pulls.filter((p) => p.state === 'open')).toHaveLength(1);
        const branch = s.api.pulls[0]!.head;
        expect(await branches(s.remote)).toEqual([branch, 'main'].sort());
        expect(results.map((r) => r.commit)).toContain(await tip(s.remote, branch));
      }
      expect(failures).toEqual([]);
    },
  );

  for (const provider of ['github', 'none'] as const) {
    it(
      `${ROUNDS} rounds of two runs started together on a branch that exists (a new render for it), provider ` +
        `${provider}: neither fails, and both end at the one commit pushed`,
      async () => {
        const failures: string[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const s = await scenario();
          const options =
            provider === 'none' ? { provider, token: undefined, tokens: {}, bodyDir: tempDir('bodies') } : {};
          const first = await s.run(options);
          // A new render for the branch: the first file gains a line.
          const files = rendered(s.config).map((f, i) =>
            i === 0 ? { ...f, content: `${f.content}# round ${round}\n` } : f,
          );
          // Both with the default identity, as two CI jobs running the same command: in the same second, the same
          // commit.
          const run = (name: string) => s.run({ ...options, files, cacheDir: join(tempDir('cache'), name) });
          const outcomes = await Promise.allSettled([run('job-a'), run('job-b')]);
          for (const outcome of outcomes)
            if (outcome.status === 'rejected') failures.push(`round ${round}: ${String(outcome.reason)}`);
          const results = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
          if (provider === 'github') expect(s.api.pulls.filter((p) => p.state === 'open')).toHaveLength(1);
          const branch = results[0]?.branch ?? first.branch!;
          const pushed = await tip(s.remote, branch);
          expect(pushed).not.toBe(first.commit);
          for (const result of results) expect(result).toMatchObject({ branch, commit: pushed });
        }
        expect(failures).toEqual([]);
      },
    );
  }
});
