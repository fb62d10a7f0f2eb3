/** The port of Go's regexp syntax checks: what each Go release refuses (npm run judge compares it with Go's own). */
import { describe, expect, it } from 'vitest';
import { goRegexpProblem, isJudgedPattern, type GoRegexpRelease } from '../../src/notifications/expr/go-regexp';

const onEvery = (pattern: string) =>
  (['go1.21', 'go1.24', 'go1.26'] as const).map((release) => goRegexpProblem(pattern, release) ?? 'accepted');

describe('goRegexpProblem', () => {
  it.each([
    ['(', 'missing closing ): `(`'],
    ['a)', 'unexpected ): `a)`'],
    ['(?=api)', 'invalid or unsupported Perl syntax: `(?=`'],
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['a**', 'invalid nested repetition operator: `**`'],
    ['*a', 'missing argument to repetition operator: `*`'],
    ['a{1001}', 'invalid repeat count: `{1001}`'],
    ['(a{2}){501}', 'invalid repeat count: `{501}`'],
    ['[z-a]', 'invalid character class range: `z-a`'],
    ['[[:foo:]]', 'invalid character class range: `[:foo:]`'],
    ['[a', 'missing closing ]: `[a`'],
    ['a\\', 'trailing backslash at end of expression: ``'],
    ['\\x{110000}', 'invalid escape sequence: `\\x{110000`'],
  ])('%s: every Go release refuses it', (pattern, problem) => {
    expect(onEvery(pattern)).toEqual(Array(3).fill(`error parsing regexp: ${problem}`));
  });

  it.each(['^api-.*$', '(?P<team>[a-z]+)-\\d{1,3}', '(?i)\\bAPI\\b', '\\Q(a)\\E+', '[]a-]', '^*', 'a{2}|b{0}'])(
    '%s: every Go release reads it',
    (pattern) => {
      expect(onEvery(pattern)).toEqual(['accepted', 'accepted', 'accepted']);
    },
  );

  it.each<[string, readonly string[]]>([
    ['(?<team>a)', ['error parsing regexp: invalid or unsupported Perl syntax: `(?<`', 'accepted', 'accepted']],
    ['\\p{greek}', ['error parsing regexp: invalid character class range: `\\p{greek}`', 'same', 'accepted']],
    [
      '\\p{Old_Italic}',
      ['accepted', 'accepted', 'error parsing regexp: invalid character class range: `\\p{Old_Italic}`'],
    ],
  ])('%s: Go releases differ', (pattern, expected) => {
    const answers = onEvery(pattern);
    expect(answers).toEqual(expected.map((answer, i) => (answer === 'same' ? answers[i - 1] : answer)));
  });

  it('judges patterns below the length and nesting where Go stops at its own limits', () => {
    expect(isJudgedPattern('a'.repeat(1_000))).toBe(true);
    expect(isJudgedPattern('a'.repeat(1_001))).toBe(false);
    expect(isJudgedPattern('('.repeat(101) + ')'.repeat(101))).toBe(false);
    const release: GoRegexpRelease = 'go1.26';
    expect(goRegexpProblem('('.repeat(100) + ')'.repeat(100), release)).toBeUndefined();
  });
});
