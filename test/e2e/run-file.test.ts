/**
 * What the e2e does with its cluster file and its secrets before it runs: the catcher's port in the relay and in the
 * team's own service URLs, and no secret of the run in the report.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { CaughtRequest } from '../../e2e/lib/catcher';
import { CLUSTER_FILE, reportedSecrets, withCatcherPort, type RunSecrets } from '../../e2e/lib/install';
import { reportedRequest } from '../../e2e/lib/report';
import { repeatsOf } from '../../e2e/lib/rollouts';
import { COMPONENTS } from '../../e2e/lib/versions';

const clusterFile = readFileSync(CLUSTER_FILE, 'utf8');
const extraDataOf = (file: unknown) => {
  const f = file as { rollouts: { extraData: Record<string, string> }; argocd: { extraData: Record<string, string> } };
  return {
    ...f.rollouts.extraData,
    ...Object.fromEntries(Object.entries(f.argocd.extraData).map(([k, v]) => [`argocd ${k}`, v])),
  };
};

describe('withCatcherPort', () => {
  const before = parse(clusterFile);
  const after = parse(withCatcherPort(clusterFile, 41234));

  it("sets the relay's port and the port of every team service URL at the relay's address to the catcher's", () => {
    expect(after.relay).toEqual({ ...before.relay, port: 41234 });
    const urls = Object.values(extraDataOf(after)).flatMap((text) => text.match(/https?:\/\/[^\s/]+\//g) ?? []);
    expect(urls.length).toBeGreaterThanOrEqual(4);
    expect(new Set(urls)).toEqual(new Set(['http://127.0.0.1:41234/']));
  });

  it('changes nothing else', () => {
    const undo = (text: string) => text.split('127.0.0.1:41234/').join(`127.0.0.1:${before.relay.port}/`);
    expect(Object.fromEntries(Object.entries(extraDataOf(after)).map(([k, v]) => [k, undo(v)]))).toEqual(
      extraDataOf(before),
    );
    expect({ ...after, relay: before.relay, rollouts: {}, argocd: {} }).toEqual({
      ...before,
      rollouts: {},
      argocd: {},
    });
  });
});

describe('the e2e cluster file', () => {
  it('declares the engine releases that the run builds', () => {
    const file = parse(clusterFile);
    const version = (name: string) => COMPONENTS.find((c) => c.name === name)!.version.replace(/^v/, '');
    expect(file.rollouts.controllerVersion).toBe(version('argo-rollouts'));
    expect(file.argocd.version).toBe(version('argo-cd'));
  });
});

const request = (over: Partial<CaughtRequest>): CaughtRequest => ({
  seq: 0,
  at: 0,
  method: 'POST',
  path: '/',
  headers: {},
  body: '',
  json: undefined,
  form: undefined,
  refused: false,
  ...over,
});

describe('reportedRequest', () => {
  const secrets: RunSecrets = { relayToken: 'a1b2c3d4e5', slackToken: 'xoxb-e2e-f6f7f8', chartRelayToken: '9z8y7x6w' };
  const shown = (r: CaughtRequest) => JSON.stringify(reportedRequest(r, reportedSecrets(secrets)));

  it("shows the relay token only as what it is, and any other authorization as '<another value>'", () => {
    const relay = shown(request({ headers: { authorization: 'Bearer a1b2c3d4e5' }, body: '{}', json: {} }));
    expect(relay).toContain(`"authorization":"Bearer <the run's relay token>"`);
    expect(shown(request({ headers: { authorization: 'Bearer other' } }))).toContain('"<another value>"');
    expect(shown(request({ headers: { authorization: 'Bearer 9z8y7x6w' } }))).toContain(
      `"Bearer <the run's relay token of the chart's namespace>"`,
    );
  });

  it("shows a Slack form's token only as what it is", () => {
    const body = 'token=xoxb-e2e-f6f7f8&channel=payments-deploys&text=hi';
    const text = shown(request({ body, form: Object.fromEntries(new URLSearchParams(body)) }));
    expect(text).not.toContain('f6f7f8');
    expect(text).toContain(`"token":"<the run's Slack token>"`);
    expect(text).toContain('"channel":"payments-deploys"');
  });
});

describe('repeatsOf', () => {
  const at = (ms: number, state: string): CaughtRequest => request({ at: ms, body: state });
  const state = (r: CaughtRequest) => r.body;

  it('tells an immediate echo from a repeat, within a bucket, and lets a later bucket send the state again', () => {
    const requests = [at(1000, 'A'), at(1030, 'A'), at(2000, 'B'), at(9000, 'A'), at(31_000, 'A')];
    const { echoes, repeats } = repeatsOf(requests, state, 30);
    expect(echoes.map((r) => r.at)).toEqual([1030]);
    expect(repeats.map((r) => r.at)).toEqual([9000]);
  });
});
