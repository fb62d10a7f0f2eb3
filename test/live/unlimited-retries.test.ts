/** Which tracked Applications retry without end, and whether the retry facts cover them. */
import { describe, expect, it } from 'vitest';
import { unlimitedRetryFindings } from '../../src/live/unlimited-retries';

const config = (retryFacts: boolean) => ({ argocd: { namespace: 'argocd-apps', retryFacts } }) as never;
const app = (name: string, limit: unknown) => ({
  metadata: { name },
  spec: { syncPolicy: { retry: { limit } } },
});

describe('unlimitedRetryFindings', () => {
  it('is silent for finite, absent and non-numeric limits', () => {
    expect(
      unlimitedRetryFindings([app('a', 5), app('b', 0), app('c', '-1'), { metadata: { name: 'd' } }], config(false)),
    ).toEqual([]);
  });

  it('is a problem without the retry facts, and says what is sent with them', () => {
    const [off] = unlimitedRetryFindings([app('a', -1)], config(false));
    expect(off).toMatchObject({ subject: 'Application argocd-apps/a', ok: false });
    const [on] = unlimitedRetryFindings([app('a', -1)], config(true));
    expect(on).toMatchObject({ ok: true });
    expect(on!.detail).toContain('one sync-retry fact per attempt');
  });

  it('ignores a negative limit on an operation that is no longer running', () => {
    const done = {
      metadata: { name: 'a' },
      status: { operationState: { phase: 'Failed', operation: { retry: { limit: -1 } } } },
    };
    expect(unlimitedRetryFindings([done], config(false))).toEqual([]);
  });
});
