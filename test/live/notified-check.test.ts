import { describe, expect, it } from 'vitest';
import { checkNotifiedAnnotation, notifiedBytes, notifiedShapeProblem } from '../../src/live/notified-check';
import { NOTIFIED_ANNOTATION } from '../../src/notifications/engine-facts';
import { clusterGrowthBudget } from '../../src/prune/growth-budget';
import { clusterConfig } from '../helpers/cluster-files';

const budget = clusterGrowthBudget(clusterConfig());
const ROLLOUT = { namespace: 'shop', name: 'api' };
const FIX = 'the prune may not be running';
const judge = (value: string | undefined) => checkNotifiedAnnotation(ROLLOUT, value, budget, FIX);

/** A map as the engine writes it: `keys` keys of `keyLength` characters each. */
function engineMap(keys: number, keyLength = 60): string {
  return JSON.stringify(
    Object.fromEntries(Array.from({ length: keys }, (_, i) => [`${i}`.padStart(keyLength, 'k'), 1764583200 + i])),
  );
}

describe("check-live's judgement of the notified annotation", () => {
  it('reads the map the engine writes: keys and bytes (name and value, as Kubernetes counts them)', () => {
    const value = engineMap(12);
    expect(notifiedShapeProblem(value)).toBeUndefined();
    expect(notifiedBytes(value)).toBe(NOTIFIED_ANNOTATION.length + value.length);
    expect(judge(value)).toEqual({
      subject: 'Rollout shop/api',
      ok: true,
      detail:
        `${NOTIFIED_ANNOTATION}: 12 keys, ${notifiedBytes(value)} bytes (worst case before a prune: ` +
        `${budget.worstCaseKeys} keys, ${budget.worstCaseBytes} bytes)`,
    });
    expect(judge(undefined)).toMatchObject({ ok: true, detail: expect.stringMatching(/: none yet \(worst case/) });
  });

  it('finds a value that is not JSON, or not an object of unix seconds, and never repeats it', () => {
    const secret = 'ghp_' + 'Zq9x'.repeat(9);
    const cases: [string, string][] = [
      [`not json ${secret}`, 'is not JSON'],
      ['', 'is not JSON'],
      [`["${secret}"]`, 'is a JSON array, not an object'],
      [`"${secret}"`, 'is a JSON string, not an object'],
      ['null', 'is a JSON null, not an object'],
      ['42', 'is a JSON number, not an object'],
      [`{"a":1,"${secret}":"yes"}`, 'maps its key 2 of 2 to a JSON string, not the unix seconds the engine records'],
      ['{"a":1.5}', 'maps its key 1 of 1 to a number that is not the unix seconds the engine records'],
      ['{"a":-1}', 'maps its key 1 of 1 to a number that is not the unix seconds'],
    ];
    for (const [value, shape] of cases) {
      const finding = judge(value);
      expect(finding.ok, value).toBe(false);
      expect(finding.detail, value).toContain(`${NOTIFIED_ANNOTATION} (${notifiedBytes(value)} bytes) ${shape}`);
      expect(finding.detail).toContain('the engine reads it as empty, sends every current state again');
      expect(finding.fix).toBe(
        `find what wrote it, and remove it: kubectl -n shop annotate rollout api ${NOTIFIED_ANNOTATION}-`,
      );
      expect(JSON.stringify(finding)).not.toContain(secret);
    }
  });

  it('judges a large map by its bytes against the stated worst case, not only by its key count', () => {
    // Few keys, but 200,000 bytes: over the worst case in bytes although far under it in keys.
    const large = engineMap(10, 20_000);
    expect(notifiedBytes(large)).toBeGreaterThan(200_000);
    expect(judge(large)).toMatchObject({
      ok: false,
      detail: expect.stringMatching(new RegExp(`: 10 keys, ${notifiedBytes(large)} bytes \\(worst case`)),
      fix: FIX,
    });
    // Many keys within the bytes: over in keys.
    expect(judge(engineMap(budget.worstCaseKeys + 1, 5))).toMatchObject({ ok: false, fix: FIX });
    // Exactly the worst case, in keys and bytes, is within it.
    expect(judge(engineMap(budget.worstCaseKeys, 5)).ok).toBe(true);
  });
});
