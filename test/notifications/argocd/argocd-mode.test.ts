import { describe, expect, it } from 'vitest';
import { argocdSyncStatusSkipReason } from '../../../src/notifications/model/argocd-refresh';
import { parseExpr } from '../../../src/notifications/expr/parse';
import { evaluate } from '../../../src/notifications/model/expr-eval';
import { ARGOCD_MODE } from '../../../src/notifications/model/modes';
import { fromJson, type GoMap } from '../../../src/notifications/model/values';

const app = (status: Record<string, unknown> | undefined): GoMap =>
  fromJson({ metadata: { name: 'hangar-api' }, ...(status === undefined ? {} : { status }) }) as GoMap;

describe("Argo CD's refresh rule (isAppSyncStatusRefreshed)", () => {
  it('processes an app without an operation, or with one still running', () => {
    expect(argocdSyncStatusSkipReason(app(undefined))).toBeUndefined();
    expect(argocdSyncStatusSkipReason(app({ reconciledAt: '2025-06-02T12:00:00Z' }))).toBeUndefined();
    expect(
      argocdSyncStatusSkipReason(app({ operationState: { phase: 'Running', startedAt: '2025-06-02T12:00:00Z' } })),
    ).toBeUndefined();
  });

  it.each(['Failed', 'Error', 'Succeeded'])(
    'skips a %s operation until reconciledAt or observedAt reaches finishedAt',
    (phase) => {
      const finishedAt = '2025-06-02T12:02:40Z';
      const operationState = { phase, finishedAt };
      expect(argocdSyncStatusSkipReason(app({ operationState }))).toMatch(/out of date/);
      expect(argocdSyncStatusSkipReason(app({ operationState, reconciledAt: '2025-06-02T12:02:39Z' }))).toMatch(
        /out of date/,
      );
      // Not after: processed.
      expect(argocdSyncStatusSkipReason(app({ operationState, reconciledAt: finishedAt }))).toBeUndefined();
      expect(
        argocdSyncStatusSkipReason(
          app({ operationState, reconciledAt: '2025-06-02T12:00:00Z', observedAt: '2025-06-02T12:03:00Z' }),
        ),
      ).toBeUndefined();
    },
  );

  it('skips a completed operation that has no finishedAt', () => {
    expect(
      argocdSyncStatusSkipReason(app({ operationState: { phase: 'Failed' }, reconciledAt: '2025-06-02T12:00:00Z' })),
    ).toMatch(/no finishedAt/);
  });
});

describe('ARGOCD_MODE variables', () => {
  const env = ARGOCD_MODE.variables(app({}), new Date('2025-06-02T12:00:00Z'), { argocdUrl: 'https://argocd.test' });
  const run = (text: string) => evaluate(parseExpr(text), env);

  it('exposes app, context, time (Now, Parse, layouts) and strings', () => {
    expect(ARGOCD_MODE.configMapName).toBe('argocd-notifications-cm');
    expect(run('app.metadata.name')).toBe('hangar-api');
    expect(run('context.argocdUrl')).toBe('https://argocd.test');
    expect(run('time.Now().Unix()')).toBe(1748865600n);
    expect(run('time.Parse("2025-06-02T12:00:30Z").Unix()')).toBe(1748865630n);
    expect(run('time.RFC3339')).toBe('2006-01-02T15:04:05Z07:00');
    expect(run('strings.ToUpper("sync-failed")')).toBe('SYNC-FAILED');
    expect(run('strings.ReplaceAll("a/b/c", "/", "-")')).toBe('a-b-c');
  });

  it('fails loudly on the repo helpers, which need the repo server', () => {
    expect(() => run('repo.RepoURLToHTTPS("git@github.com:a/b.git")')).toThrow(/not modelled/);
  });
});
