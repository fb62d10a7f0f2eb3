import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clusterConfigSchema } from '../../src/clusters';
import { extraDataProblems } from '../../src/notifications/configmap/key-problems';
import { parseTemplate, TemplateParseError } from '../../src/notifications/model/go-template-parse';
import { validClusterFile } from '../helpers/cluster-files';
import { propertyRuns } from '../helpers/property-runs';

const RUNS = propertyRuns(60);
const KEYS = [
  'service.slack',
  'service.webhook.ci',
  'template.t',
  'trigger.t',
  'subscriptions',
  'defaultTriggers',
  'defaultTriggers.slack',
  'context',
];
/** Text with the characters that YAML, Go templates and expr-lang give meaning to. */
const TEXT = fc
  .array(
    fc.constantFrom(
      'a',
      ' ',
      '\n',
      ':',
      '-',
      '[',
      ']',
      '{',
      '}',
      '{{',
      '}}',
      '|',
      '"',
      "'",
      '*',
      '&',
      '!',
      '?.',
      '==',
      '$',
      '.',
      '(',
      ')',
      '#',
      'when',
      'send',
      'x',
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('extraData never crashes the loader', () => {
  it('any text under any key is accepted or refused with a message, never thrown', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KEYS),
        TEXT,
        fc.constantFrom('rollouts', 'argocd') as fc.Arbitrary<'rollouts' | 'argocd'>,
        fc.constantFrom('configmap', 'helm-values'),
        (key, text, engine, delivery) => {
          const problems = extraDataProblems(engine, { [key]: text });
          for (const problem of problems) expect(problem.message).not.toBe('');
          const file = validClusterFile();
          const result = clusterConfigSchema.safeParse({
            ...file,
            [engine]: { ...(file as unknown as Record<string, object>)[engine], delivery, extraData: { [key]: text } },
          });
          expect(typeof result.success).toBe('boolean');
        },
      ),
      { numRuns: RUNS, seed: 20261201 },
    );
  });

  it('refuses an alias bomb as YAML instead of expanding it', () => {
    const bomb = `- &a {when: x}\n- [${Array.from({ length: 60 }, () => '*a').join(', ')}]\n`;
    expect(extraDataProblems('rollouts', { 'trigger.t': bomb })[0]?.message).toMatch(/^not valid YAML: .*alias/i);
  });

  it('the template parser answers every text: nodes, or a parse error at a line', () => {
    fc.assert(
      fc.property(TEXT, (text) => {
        try {
          expect(Array.isArray(parseTemplate('t', text))).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(TemplateParseError);
          expect((error as TemplateParseError).line).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: RUNS, seed: 20261201 },
    );
  });
});
