import type { CaughtRequest } from '../lib/catcher';
import type { Scenario } from '../lib/report';
import type { E2eContext } from './context';

/** What every request the catcher got must be: the rendered webhook, with the token from the Secret. */
export async function delivery(ctx: E2eContext, s: Scenario, relayToken: string): Promise<void> {
  const all: CaughtRequest[] = ctx.catcher.requests;
  const bad = (test: (r: CaughtRequest) => boolean) => all.filter((r) => !test(r)).map((r) => r.seq);
  s.check('the catcher received facts', all.length > 0, all.length);
  s.check(
    'every request is POST /outcome/e2e',
    bad((r) => r.method === 'POST' && r.path === `/outcome/${ctx.cluster.name}`).length === 0,
  );
  s.check(
    'every request carries the relay token from the notifications Secret',
    bad((r) => r.headers.authorization === `Bearer ${relayToken}`).length === 0,
  );
  s.check(
    'every request is Content-Type: application/json',
    bad((r) => r.headers['content-type'] === 'application/json').length === 0,
  );
  s.check(
    'every body is valid JSON of glidepath.fact/v1',
    bad((r) => r.json?.schema === 'glidepath.fact/v1' && r.json?.cluster === ctx.cluster.name).length === 0,
    bad((r) => r.json?.schema === 'glidepath.fact/v1'),
  );
  s.check(
    'no body carries the notified annotation',
    bad((r) => !r.body.includes('notified.notifications.argoproj.io')).length === 0,
  );
}
