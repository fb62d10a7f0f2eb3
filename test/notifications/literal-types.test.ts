/** The compile-time type errors of each expr release's checker; `npm run judge:engine` holds the same cases. */
import { describe, expect, it } from 'vitest';
import { checkerRules, rowsFrom } from '../../src/notifications/engine-versions';
import { EVERY_CHECKER, literalTypeProblem } from '../../src/notifications/expr/literal-types';
import { parseExpr } from '../../src/notifications/expr/parse';

const [argocd26, argocd28, argocd29, argocd31] = ['2.6.1', '2.8.0', '2.9.0', '3.2.0'].map((release) =>
  checkerRules(rowsFrom('argo-cd', release)[0]!),
);
const refused = (text: string, rules = EVERY_CHECKER) => literalTypeProblem(parseExpr(text), rules) !== undefined;

describe('what every release refuses at load that verify passed before (helper-23, judge:engine)', () => {
  it.each([
    '1 in 2',
    '"a" in "abc"',
    '1 in nil',
    "1..'a' != nil",
    '2 ** "a" > 1',
    '"x"[5] == "x"',
    '# == 1',
    '.status == "True"',
    'len(#) > 0',
    'x matches "(?=a)"',
    'len() > 0',
    'len(x, x) > 0',
    'len(1) > 0',
    'all("abc", {true})',
    '1 % (1 - 1) == 0',
  ])('%s', (text) => {
    expect(refused(text)).toBe(true);
  });

  it.each([
    '"a" in x.labels',
    'len(1..3) == 3',
    'all(x.conditions, {#.status == "True"})',
    'all(x.conditions, .status == "True")',
    'x.name[0] == "a"',
    'x % 0 == 0',
    'len("abc") == 3',
    'count(1..3, # > 1) == 2',
  ])('%s compiles', (text) => {
    expect(refused(text)).toBe(false);
  });
});

describe("the checker's type errors, release by release (helper-20)", () => {
  it.each(['x % 1.5 == 0', 'x ** 2 % 2 == 0', '7.5 % 2 == 1', '"a" ? true : false', '-"a" == "b"', '1 == "a"'])(
    'every release refuses %s',
    (text) => {
      for (const rules of [EVERY_CHECKER, argocd26, argocd28, argocd29, argocd31])
        expect(refused(text, rules)).toBe(true);
    },
  );

  it.each([
    ['-(x / 2) % 2 == 0', [false, false, true, true]],
    ['(x > 1 ? x / 2 : 1.5) % 2 == 0', [false, false, true, true]],
    ['not (x / 2)', [true, false, true, true]],
    ['x / 2 matches "x"', [true, false, true, true]],
    ['x / 2 ? true : false', [true, false, true, true]],
    ['x / 2 == "1"', [true, false, true, true]],
    ['x * 1.0 % 2 == 0', [true, false, false, false]],
    ['x % 2 == "a"', [true, false, false, true]],
    ['x % 2 == 0 and x / 2 > 1', [false, false, false, false]],
  ] as const)('%s: refused on Argo CD 2.6.1, 2.8.0, 2.9.0, 3.2.0 as %j', (text, expected) => {
    expect([argocd26, argocd28, argocd29, argocd31].map((rules) => refused(text, rules))).toEqual(expected);
  });
});
