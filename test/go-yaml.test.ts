import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { goReadsPlainAsOther, stringifyForGo } from '../src/notifications/go-yaml';
import { yaml } from '../src/notifications/config/define';
import { propertyRuns } from './helpers/property-runs';
import { ALSO_COVERED } from './helpers/also-covered';

describe('stringifyForGo', () => {
  it('double-quotes the strings YAML 1.1 and Go read as a bool, null or number, which YAML 1.2 writes plain', () => {
    // What Argo CD read from `context` before: "true" for yes, "1000" for 1_000, "15" for 0o17, "9" for 09.
    expect(yaml({ notifyOnCall: 'yes', batch: '1_000', mode: '0o17', seven: '07', off: 'Off', bin: '0b101' })).toBe(
      'notifyOnCall: "yes"\nbatch: "1_000"\nmode: "0o17"\nseven: "07"\n"off": "Off"\nbin: "0b101"\n',
    );
  });

  it('writes U+0085, U+2028 and U+2029 as escapes, which Go would read as line breaks', () => {
    expect(stringifyForGo({ a: 'x\u2028y', b: 'p\u2029q\n', c: 'n\u0085' })).toBe(
      'a: "x\\Ly"\nb: "p\\Pq\\n"\nc: "n\\N"\n',
    );
  });

  it('leaves plain what Go reads as the same string', () => {
    for (const text of ['<', '2001-12-14', '1:20', 'NaN', '+Inf', '_1', '.e', 'x1_000', 'a\tb', '1.2.3'])
      expect(goReadsPlainAsOther(text), text).toBe(false);
    for (const text of [
      '1.',
      '.5',
      '-.5e3',
      '1e3',
      '+1',
      '0x1F',
      '0X1f',
      '1__0',
      '99999999999999999999',
      '~',
      '',
      'NULL',
      '.Inf',
      '<<',
    ]) {
      expect(goReadsPlainAsOther(text), text).toBe(true);
    }
  });

  it(
    'reads back as the value it was given, for random strings (the yaml library; npm run judge reads with Go)',
    ALSO_COVERED,
    () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }))), (value) => {
          expect(parse(stringifyForGo(value))).toEqual(value);
          expect(parse(stringifyForGo(value, { version: '1.1' }), { version: '1.1' })).toEqual(value);
        }),
        { numRuns: propertyRuns(40), seed: 20261201 },
      );
    },
  );
});
