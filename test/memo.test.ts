import { describe, expect, it } from 'vitest';
import { Memo, plainDataKey } from '../src/memo';

describe('Memo', () => {
  it('makes each text once, and starts over past its limit instead of growing', () => {
    const memo = new Memo<number>(2);
    let made = 0;
    const make = () => ++made;
    expect([memo.get('a', make), memo.get('a', make), memo.get('b', make)]).toEqual([1, 1, 2]);
    expect(memo.get('c', make)).toBe(3); // the third text: the memo starts over
    expect(memo.get('a', make)).toBe(4);
    expect(memo.get('c', make)).toBe(3);
  });

  it('remembers nothing of a make that throws', () => {
    const memo = new Memo<string>(10);
    expect(() =>
      memo.get('x', () => {
        throw new Error('broken');
      }),
    ).toThrow('broken');
    expect(memo.get('x', () => 'fine')).toBe('fine');
  });
});

describe('plainDataKey', () => {
  it('tells apart values whose JSON is alike', () => {
    const pairs: [unknown, unknown][] = [
      [[null], [undefined]],
      [[null], [Number.NaN]],
      [[Number.NaN], [Number.POSITIVE_INFINITY]],
      [{ a: undefined, b: 1 }, { b: 1 }],
      [{ n: 1 }, { n: '1' }],
      [[undefined], ['\u0000undefined']],
      [[Number.NaN], ['\u0000NaN']],
    ];
    for (const [a, b] of pairs) expect(plainDataKey(a)).not.toBe(plainDataKey(b));
    expect(plainDataKey({ when: 'a', send: ['x'] })).toBe(plainDataKey({ when: 'a', send: ['x'] }));
  });

  it('gives no key for what is not plain data', () => {
    class Point {
      x = 1;
    }
    for (const value of [new Date(0), { at: new Date(0) }, new Point(), [10n], { f: () => 1 }, new Map()])
      expect(plainDataKey(value)).toBeUndefined();
    expect(plainDataKey(Object.assign(Object.create(null), { a: 1 }))).toBe('{"a":1}');
  });
});
