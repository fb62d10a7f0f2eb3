/** Which keys of the notified annotation are glidepath's, and what the prune leaves of it. */
import { describe, expect, it } from 'vitest';
import { conditionKey, stateKey } from '../../src/notifications/engine-facts';
import { ROLLOUT_OWNED_KEYS } from '../../src/notifications/rollouts/rollout-fact';
import { jsonObjectMembers, ownedKeyTest, pruneNotified } from '../../src/notifications/notified-keys';

const owned = ownedKeyTest(ROLLOUT_OWNED_KEYS);
const glidepathKey = (oncePer: string, when = 'rollout.status != nil') =>
  stateKey({
    oncePer,
    trigger: 'glidepath-rollout-state',
    conditionKey: conditionKey(0, when),
    service: 'glidepath-relay',
    recipient: '',
  });
const teamKey = (oncePer: string, service = 'team-slack', recipient = 'payments-deploys') =>
  stateKey({
    oncePer,
    trigger: 'team-rollout-healthy',
    conditionKey: conditionKey(0, "rollout.status?.phase == 'Healthy'"),
    service,
    recipient,
  });

describe('ownedKeyTest', () => {
  it("is true for glidepath's keys, whatever the oncePer (colons included) and the condition's hash", () => {
    expect(owned(glidepathKey('3/Healthy/3/6b9c4f7d8/false/rel:1/2963'))).toBe(true);
    expect(owned(glidepathKey('', 'an older when'))).toBe(true);
    expect(owned(`argo-rollouts:${glidepathKey('')}`)).toBe(true); // self-service config: the namespace first
  });

  it("is false for a team's keys, also one sent to glidepath's relay service under another trigger", () => {
    expect(owned(teamKey('6b9c4f7d8'))).toBe(false);
    expect(owned(teamKey('', 'glidepath-relay', ''))).toBe(false);
    expect(owned('x-glidepath-rollout-state:[0].AAAAAAAAAAAAAAAAAAAAAAAAAAA:glidepath-relay:')).toBe(false);
    expect(owned(`${glidepathKey('1')}extra`)).toBe(false);
  });
});

describe('pruneNotified', () => {
  it('removes only glidepath keys; every other member stays as it was written, byte for byte', () => {
    const team = `"${teamKey('6b9c4f7d8')}":1760000000`;
    const odd = `"caf\\u00e9 \\u003c\\u003e":1760000001`; // Go's json escapes, kept as written
    const value = `{"${glidepathKey('a')}":1760000002,${team},"${glidepathKey('b')}":1760000003,${odd}}`;
    const pruned = pruneNotified(value, 'glidepath', owned);
    expect(pruned).toEqual({ value: `{${team},${odd}}`, removed: 2, kept: 2, unreadable: false });
  });

  it('removes the annotation when only glidepath keys were in it, and leaves a value without them as it is', () => {
    expect(pruneNotified(`{"${glidepathKey('a')}":1}`, 'glidepath', owned).value).toBeUndefined();
    const teamOnly = ` { "${teamKey('x')}" : 1 } `;
    expect(pruneNotified(teamOnly, 'glidepath', owned)).toEqual({
      value: teamOnly,
      removed: 0,
      kept: 1,
      unreadable: false,
    });
  });

  it('leaves a value that is not a JSON object as it is; keys: all removes everything', () => {
    expect(pruneNotified('not json', 'glidepath', owned)).toMatchObject({ value: 'not json', unreadable: true });
    expect(pruneNotified('[1]', 'glidepath', owned)).toMatchObject({ value: '[1]', unreadable: true });
    expect(pruneNotified(`{"${teamKey('x')}":1}`, 'all', owned)).toMatchObject({ value: undefined, removed: 1 });
  });
});

describe('jsonObjectMembers', () => {
  it('reads members with any JSON value and whitespace, as written', () => {
    expect(jsonObjectMembers('{ "a" : [1, {"b": "}"}] , "c\\"":null,"d":{"e":"]"} }')).toEqual([
      { key: 'a', text: '"a" : [1, {"b": "}"}]' },
      { key: 'c"', text: '"c\\"":null' },
      { key: 'd', text: '"d":{"e":"]"}' },
    ]);
    expect(jsonObjectMembers('{}')).toEqual([]);
    expect(jsonObjectMembers('{"a":1')).toBeUndefined();
  });
});
