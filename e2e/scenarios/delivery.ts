import { FACT_SCHEMA_FILE } from '../../src/notifications/fact-contract';
import type { CaughtRequest } from '../lib/catcher';
import { validFact } from '../lib/fact-schema';
import type { Scenario } from '../lib/report';
import type { E2eContext } from './context';
import { CHART_NAMESPACE } from './helm-chart-delivery';
import { isTeamRequest } from './team-notifications';

/**
 * What every request the catcher got must be: the rendered relay webhook, with the token from the Secret; or one of
 * the team's own services (extraData), which never carries the relay's token.
 */
export async function delivery(ctx: E2eContext, s: Scenario): Promise<void> {
  const { relayToken } = ctx.secrets;
  const all: CaughtRequest[] = ctx.catcher.requests;
  const glidepath = all.filter((r) => !isTeamRequest(r));
  const team = all.filter(isTeamRequest);
  const bad = (requests: CaughtRequest[], test: (r: CaughtRequest) => boolean) =>
    requests.filter((r) => !test(r)).map((r) => r.seq);
  s.note('requests', { glidepath: glidepath.length, team: team.length });
  s.check('the catcher received facts', glidepath.length > 0, glidepath.length);
  s.check(
    "every request but the team's is POST /outcome/e2e",
    bad(glidepath, (r) => r.method === 'POST' && r.path === `/outcome/${ctx.cluster.name}`).length === 0,
  );
  // The chart namespace's controller (helm chart delivery) reads a Secret of its own, with a token of its own.
  const tokenOf = (r: CaughtRequest) =>
    r.json?.rollout?.namespace === CHART_NAMESPACE ? ctx.secrets.chartRelayToken : relayToken;
  s.check(
    'every such request carries the relay token from its notifications Secret',
    bad(glidepath, (r) => r.headers.authorization === `Bearer ${tokenOf(r)}`).length === 0,
  );
  s.check(
    'every such request is Content-Type: application/json',
    bad(glidepath, (r) => r.headers['content-type'] === 'application/json').length === 0,
  );
  s.check(
    'every such body is valid JSON of glidepath.fact/v1',
    bad(glidepath, (r) => r.json?.schema === 'glidepath.fact/v1' && r.json?.cluster === ctx.cluster.name).length === 0,
    bad(glidepath, (r) => r.json?.schema === 'glidepath.fact/v1'),
  );
  const invalid = glidepath.map((r) => ({ seq: r.seq, errors: validFact(r.json) })).filter((r) => r.errors.length > 0);
  s.check(`every such body validates against ${FACT_SCHEMA_FILE}`, invalid.length === 0, invalid.slice(0, 5));
  s.check(
    'no body carries the notified annotation',
    bad(all, (r) => !r.body.includes('notified.notifications.argoproj.io')).length === 0,
  );
  s.check(
    "no request of the team's services carries the relay token",
    bad(
      team,
      (r) =>
        r.headers.authorization === undefined &&
        !r.body.includes(relayToken) &&
        !r.body.includes(ctx.secrets.chartRelayToken),
    ).length === 0,
  );
}
