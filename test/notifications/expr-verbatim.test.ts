import { describe, expect, it } from 'vitest';
import { exprText } from '../../src/notifications/expr/verbatim';
import { printExpr } from '../../src/notifications/expr/print';
import { OBSERVED_CURRENT_GENERATION } from '../../src/notifications/rollouts/rollout-fact';

describe('a trigger condition written as its rendered text', () => {
  it('is the AST that prints back as written', () => {
    expect(printExpr(OBSERVED_CURRENT_GENERATION)).toBe(
      'rollout.status?.observedGeneration == string(rollout.metadata.generation)',
    );
  });

  it('refuses a text that would render otherwise, so the source stays greppable', () => {
    expect(() => exprText('a  ==  b')).toThrow(/written: a {2}== {2}b\n {2}printed: a == b/);
    expect(() => exprText('(a == b)')).toThrow(/printed: a == b/);
  });
});
