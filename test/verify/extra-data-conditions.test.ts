/** A team's oncePer against the clock: the checks over the conditions of its trigger keys, without a render. */
import { describe, expect, it } from 'vitest';
import { rowsFrom } from '../../src/notifications/engine-versions';
import { teamConditions, timeBucketProblems } from '../../src/verify/extra-data-conditions';

function bucketProblems(oncePer: string, when = "rollout.status?.phase == 'Degraded'") {
  const trigger = `- when: ${when}\n  oncePer: ${oncePer}\n  send: [rollout-degraded]\n`;
  return timeBucketProblems(
    teamConditions({ 'trigger.rollout-degraded': trigger }),
    'rollouts',
    rowsFrom('argo-rollouts', '1.9.0'),
  );
}

/** On Argo CD 2.6.1 (antonmedv/expr v1.9.0: `/` of integers is an integer, and no int() or string()) and later. */
function argocd261Problems(oncePer: string) {
  const trigger = `- when: app.status.operationState.phase == 'Failed'\n  oncePer: ${oncePer}\n  send: [app-failed]\n`;
  return timeBucketProblems(teamConditions({ 'trigger.app-failed': trigger }), 'argocd', rowsFrom('argo-cd', '2.6.1'));
}

describe("a team's oncePer and the clock", () => {
  it.each([
    ['string(time.Now().Unix())', 120],
    ['string(int(time.Now().Unix() / 2))', 60],
    ['string(int(time.Now().Unix() / 5))', 24],
    ['string(int(time.Now().Unix() / 59))', 3],
  ])('%s follows the clock closer than a minute: a warning at its line', (oncePer, values) => {
    expect(bucketProblems(oncePer)).toEqual([
      {
        key: 'trigger.rollout-degraded',
        line: 2,
        message:
          `trigger.rollout-degraded[0].oncePer ${JSON.stringify(oncePer)} takes ${values} values in 120 seconds: ` +
          "the trigger fires again and again and fills the notified annotation glidepath's facts share",
        fix: 'bucket the time by a minute or more: string(int(time.Now().Unix() / N)) with N >= 60',
      },
    ]);
  });

  it.each([
    ['time.Now().String()', "time.Time's String()"],
    ["time.Now().Format('2006-01-02')", "time.Time's Format()"],
    ['string(now().Unix())', 'the expr-lang builtin now()'],
    ['string(-time.Now().Unix())', 'the expr-lang unary - -time.Now().Unix()'],
  ])('%s uses what the model does not evaluate: it says it cannot judge it', (oncePer, what) => {
    expect(bucketProblems(oncePer)).toEqual([
      expect.objectContaining({
        message: expect.stringContaining(`uses ${what}, which the engine runs but verify's model does not`),
        fix: 'check it with npm run notifcheck, or bucket the time: string(int(time.Now().Unix() / N))',
      }),
    ]);
  });

  it('a float division is named as one', () => {
    expect(bucketProblems('string(time.Now().Unix() / 60)')).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/takes 120 values in 120 seconds \(time\.Now\(\)\.Unix\(\) \/ 60 is a float\)/),
      }),
    ]);
  });

  it('a division whose value stays put passes: a whole bucket divided, a comparison (helper-19)', () => {
    expect(bucketProblems('string((time.Now().Unix() - time.Now().Unix() % 3600) / 3600)')).toEqual([]);
    expect(bucketProblems('string(time.Now().Unix() / 3600 > 498000)')).toEqual([]);
  });

  it('a bucket of a minute, a field of the object, and a float in when pass', () => {
    expect(bucketProblems('string(int(time.Now().Unix() / 60))')).toEqual([]);
    expect(bucketProblems('rollout.metadata.name')).toEqual([]);
    expect(bucketProblems('rollout.metadata.name', 'time.Now().Unix() / 60 > 0')).toEqual([]);
  });

  it('on Argo CD 2.6.1 a division of integers is a bucket until 2.8.0, and the fix is one that 2.6.1 can run', () => {
    // Run on the real expr: v1.9.0 gives 498972 for time.Now().Unix() / 3600, v1.10.0 and later 498972.74.
    expect(argocd261Problems('time.Now().Unix() / 3600')).toEqual([
      {
        key: 'trigger.app-failed',
        line: 2,
        message:
          'trigger.app-failed[0].oncePer "time.Now().Unix() / 3600" takes 120 values in 120 seconds ' +
          '(time.Now().Unix() / 3600 is a float) from Argo CD 2.8.0 on (before it, github.com/antonmedv/expr v1.9.0 ' +
          'divides integers): after that upgrade the trigger fires again and again and fills the notified annotation ' +
          "glidepath's facts share",
        fix: 'bucket the time by a minute or more: time.Now().Unix() - time.Now().Unix() % N with N >= 60',
      },
    ]);
    expect(argocd261Problems('time.Now().Unix() - time.Now().Unix() % 3600')).toEqual([]);
    expect(argocd261Problems('time.Now().Unix() % 5')).toEqual([
      expect.objectContaining({
        fix: 'bucket the time by a minute or more: time.Now().Unix() - time.Now().Unix() % N with N >= 60',
      }),
    ]);
  });

  it('on Argo CD 2.6.1 a float or a short bucket warns for now, not after an upgrade (helper-19)', () => {
    for (const [oncePer, values] of [
      ['time.Now().Unix() / 3600.0', 120],
      ['time.Now().Unix() / 2', 60],
    ] as const) {
      const [problem] = argocd261Problems(oncePer);
      expect(problem?.message).toContain(`takes ${values} values in 120 seconds`);
      expect(problem?.message).not.toContain('upgrade');
    }
  });
});
