/** Cross-references between services, templates, triggers and subscriptions: type errors, and synth-time errors. */
import { describe, expect, it } from 'vitest';
import { defineNotifications, NotificationsConfigError, yaml } from '../../src/notifications/config/define';
import { stringify } from 'yaml';
import type { NotificationsSpec } from '../../src/notifications/config/types';
import { bool } from '../../src/notifications/expr/ast';

const service = { type: 'webhook', url: 'http://relay:80/x', headers: [] } as const;
const body = { root: 'rollout', fields: {} };
const selector = { matchLabels: { 'hangar.io/release-tracked': 'true' } };

describe('defineNotifications', () => {
  it('rejects a misspelt trigger, template or service at compile time', () => {
    const build = () =>
      defineNotifications({
        services: { relay: service },
        templates: {
          fact: {
            webhook: {
              relay: { method: 'POST', body },
              // @ts-expect-error: "relai" is not a service
              relai: { method: 'POST', body },
            },
          },
        },
        // @ts-expect-error: "fakt" is not a template
        triggers: { state: [{ description: 'd', when: bool(true), send: ['fakt'] }] },
        // @ts-expect-error: "stat" is not a trigger
        subscriptions: [{ recipients: ['relay'], triggers: ['stat'], selector }],
      });
    expect(build).toThrow(NotificationsConfigError);
  });

  it('names every broken reference at synth time, for names computed at runtime', () => {
    const spec = {
      services: { relay: service },
      templates: { fact: { webhook: { relai: { method: 'POST', body } } } },
      triggers: { state: [{ description: 'd', when: bool(true), send: ['fakt'] }] },
      subscriptions: [{ recipients: ['relay'], triggers: ['stat'], selector }],
    } as unknown as NotificationsSpec<string, string, string>;
    expect(() => defineNotifications(spec)).toThrow(
      [
        'invalid notifications config:',
        '  template fact: webhook.relai names no service (services: relay)',
        '  trigger state[0]: sends fakt, which is not a template (templates: fact)',
        '  subscriptions[0]: trigger stat is not defined (triggers: state)',
      ].join('\n'),
    );
  });

  it('refuses trigger names with the on- prefix of Argo Rollouts event triggers', () => {
    expect(() =>
      defineNotifications({
        services: { relay: service },
        templates: { fact: { webhook: { relay: { method: 'POST', body } } } },
        triggers: { 'on-rollout-completed': [{ description: 'd', when: bool(true), send: ['fact'] }] },
        subscriptions: [{ recipients: ['relay'], triggers: ['on-rollout-completed'], selector }],
      }),
    ).toThrow(/on-rollout-completed: names starting with "on-" collide/);
  });

  it('refuses a subscription that would select every object', () => {
    expect(() =>
      defineNotifications({
        services: { relay: service },
        templates: { fact: { webhook: { relay: { method: 'POST', body } } } },
        triggers: { state: [{ description: 'd', when: bool(true), send: ['fact'] }] },
        subscriptions: [{ recipients: ['relay'], triggers: ['state'], selector: { matchLabels: {} } }],
      }),
    ).toThrow(/empty selector/);
  });

  it('writes each value as the yaml library does, also values whose JSON is alike', () => {
    const moment = new Date(Date.UTC(2026, 11, 1));
    const values: unknown[] = [
      { when: 'a', send: ['x'] },
      { when: 'a', send: ['x'] },
      { at: moment.toISOString() },
      { at: moment },
      [null, 1],
      [undefined, 1],
      [Number.NaN, 1],
      [Number.POSITIVE_INFINITY, 1],
      { a: undefined, b: 1 },
      { b: 1 },
      { big: 10n },
    ];
    for (const value of values) expect(yaml(value)).toBe(stringify(value, { lineWidth: 0 }));
  });
});
