/**
 * extraData read as the engine of one release reads it (notifications-engine v0.5.0, Argo Rollouts 1.9.x): the
 * cases issue 23 found against the real engine, which `npm run judge:engine` keeps checking on every release.
 */
import { describe, expect, it } from 'vitest';
import { extraDataProblems } from '../../src/notifications/configmap/key-problems';

const V050 = 'v0.5.0';
const NEWEST_3_2 = 'v0.5.1-0.20260316232552-d27ba0152c1c';

function errors(data: Record<string, string>, version = V050): string[] {
  return extraDataProblems('rollouts', data, [version])
    .filter((p) => p.severity !== 'warning')
    .map((p) => `${p.key}${p.line === undefined ? '' : `:${p.line}`}: ${p.message}`);
}

function warnings(data: Record<string, string>): string[] {
  return extraDataProblems('rollouts', data, [V050])
    .filter((p) => p.severity === 'warning')
    .map((p) => `${p.key}: ${p.message}`);
}

describe('what the engine refuses, glidepath refuses, with the engine reason, the key and the line', () => {
  it.each([
    [
      'a webhook headers map',
      { 'service.webhook.team': 'url: https://a.test\nheaders:\n  Content-Type: application/json\n' },
      /service\.webhook\.team:3: .*cannot unmarshal object into Go struct field WebhookOptions\.headers of type \[\]services\.Header/,
    ],
    [
      'an email port in quotes',
      { 'service.email': 'host: smtp.test\nport: "587"\n' },
      /service\.email:2: .*cannot unmarshal string into Go struct field EmailOptions\.port of type int/,
    ],
    [
      'a slack token list',
      { 'service.slack': 'token: [$slack-token]\n' },
      /cannot unmarshal array into Go struct field SlackOptions\.token of type string/,
    ],
    [
      'service.teams-workflows on v0.5.0',
      { 'service.teams-workflows': 'recipientUrls: {a: b}\n' },
      /service type 'teams-workflows' is not supported by this engine/,
    ],
    ['service.nats on v0.5.0', { 'service.nats': 'url: nats://a\n' }, /service type 'nats' is not supported/],
    [
      'a slack attachments list',
      { 'template.team': 'slack:\n  attachments:\n  - a\n' },
      /cannot unmarshal array into Go struct field SlackNotification\.attachments of type string/,
    ],
    [
      'a webhook body map',
      { 'template.team': 'webhook:\n  team:\n    body:\n      a: b\n' },
      /cannot unmarshal object into Go struct field WebhookNotification\.body of type string/,
    ],
    [
      'a 64-character selector value',
      { subscriptions: `- recipients: [slack:a]\n  selector: team=${'a'.repeat(64)}\n` },
      /subscriptions:2: \[0\]\.selector .*must be no more than 63 characters/,
    ],
    [
      'a selector key a/b/c',
      { subscriptions: '- recipients: [slack:a]\n  selector: a/b/c=x\n' },
      /subscriptions:2: \[0\]\.selector .*a qualified name/,
    ],
  ])('%s', (_, data, reason) => {
    expect(errors(data).join('\n')).toMatch(reason);
  });

  it('accepts service.teams-workflows on the engine of Argo CD 3.2.12', () => {
    expect(errors({ 'service.teams-workflows': 'recipientUrls: {a: $teams-url}\n' }, NEWEST_3_2)).toEqual([]);
  });
});

describe('what the engine accepts, glidepath accepts', () => {
  it.each([
    ['a ternary', { 'trigger.t': '- when: "rollout.status.phase == \'Degraded\' ? true : false"\n' }],
    ['matches', { 'trigger.t': '- when: rollout.metadata.name matches "^api-"\n' }],
    ['a closure', { 'trigger.t': '- when: all(rollout.status.conditions, {.status == "True"})\n' }],
    ['when: true', { 'trigger.t': '- when: true\n' }],
    ['message: 5', { 'template.t': 'message: 5\n' }],
    ['defaultTriggers: [yes]', { defaultTriggers: '- yes\n' }],
    ['a webhook method that is no template', { 'template.t': 'webhook:\n  team:\n    method: "{{ .x "\n' }],
    ['a field name in another case', { 'service.slack': 'Token: $slack-token\n' }],
  ])('%s', (_, data) => {
    expect(errors(data)).toEqual([]);
  });

  it('warns on a duplicate key and on a key the engine reads nothing from, and refuses neither', () => {
    const data = { 'template.t': 'message: one\nmessage: two\n', foo: 'bar' };
    expect(errors(data)).toEqual([]);
    expect(warnings(data)).toEqual([
      'template.t: duplicate key "message": the engine keeps the last one and ignores the others',
      expect.stringMatching(/^foo: the engine reads nothing from this key and skips it/),
    ]);
  });

  it('the loader refuses only what every engine version refuses', () => {
    expect(
      extraDataProblems('rollouts', { 'service.teams-workflows': 'recipientUrls: {a: $u}\n' }, undefined, 'all'),
    ).toEqual([]);
    expect(extraDataProblems('rollouts', { 'service.carrierpigeon': 'url: x\n' }, undefined, 'all')).toHaveLength(1);
  });
});
