/**
 * A time bucket must be `string(int(time.Now().Unix() / N))`, with N below the resync period: `/` is a float in
 * expr-lang, and a bucket as long as the resync lets two resyncs share it, so a lost fact waits a whole resync more.
 */
import { mentionsIdent, untruncatedTimeDivisions } from '../../notifications/expr/analyze';
import { printExpr } from '../../notifications/expr/print';
import { conditions, ENGINES, EPOCH, evaluateText, resyncSeconds, variables } from './engines';
import { BOTH_ENGINES, type NotificationRule, type Problem } from './rule';

/** Offsets into a bucket from which a resync one second early is tried. */
const RESYNC_STARTS = [0, 1, 299, 599, 899];

export const timeBucket: NotificationRule = {
  name: 'time-bucket',
  engines: BOTH_ENGINES,
  reads: 'loaded',
  check({ loaded, engine, config }) {
    const resync = resyncSeconds(engine, config.rollouts.resyncSeconds);
    const steady = ENGINES[engine].steadyObject.object;
    const problems: Problem[] = [];
    for (const { condition, at } of conditions(loaded)) {
      for (const [field, expr, text] of [
        ['when', condition.when, condition.whenText],
        ['oncePer', condition.oncePer, condition.oncePerText],
      ] as const) {
        if (!expr || !mentionsIdent(expr, 'time')) continue;
        for (const division of untruncatedTimeDivisions(expr)) {
          problems.push({
            message:
              `${at}.${field}: ${printExpr(division)} is a float in expr-lang, so string() of it changes every ` +
              `second and the trigger fires on every evaluation`,
            fix: 'truncate the bucket: string(int(time.Now().Unix() / N))',
          });
        }
        const valueAt = (seconds: number) => evaluateText(expr, variables(engine, steady, EPOCH + seconds * 1000));
        const perSecond = new Set(Array.from({ length: 10 }, (_, s) => valueAt(s)));
        if (perSecond.size > 2) {
          problems.push({
            message:
              `${at}.${field} ${JSON.stringify(text)} takes ${perSecond.size} values in 10 seconds: it is not a ` +
              `time bucket`,
            fix: 'use string(int(time.Now().Unix() / N)) with N below the resync period',
          });
        } else if (
          field === 'oncePer' &&
          RESYNC_STARTS.some((start) => valueAt(start) === valueAt(start + resync - 1))
        ) {
          problems.push({
            message:
              `${at}.oncePer ${JSON.stringify(text)}: two resyncs about ${resync} s apart can share a bucket, ` +
              `so a lost fact waits a whole extra resync`,
            fix: `make the bucket shorter than the resync period (${resync} s)`,
          });
        }
      }
    }
    return problems;
  },
};
