import { Yaml } from 'cdk8s';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { stringifyYaml, writeYaml11 } from '../../src/render/fast-yaml';
import { buildClusterCharts } from '../../src/render/render-cluster';
import { clusterConfig } from '../helpers/cluster-files';
import { propertyRuns } from '../helpers/property-runs';
import { ALSO_COVERED } from '../helpers/also-covered';

/** Strings whose YAML needs quotes, or looks like it might, in YAML 1.1. */
const TRICKY = [
  '',
  ' ',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'n',
  'true',
  'null',
  '~',
  '=',
  '<<',
  '1',
  '0o17',
  '0x1F',
  '1_000',
  '1:20',
  '190:20:30',
  '1.5',
  '.inf',
  '-.Inf',
  '.nan',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '- x',
  '? x',
  ': x',
  'a: b',
  'a #b',
  '#c',
  '&a',
  '*a',
  '!t',
  '%d',
  '@x',
  '`x',
  '"q"',
  "'q'",
  '{{args.image}}',
  '[a]',
  '{a}',
  'a,b',
  'trail ',
  ' lead',
  'tab\there',
  '---',
  '--- x',
  '...',
  'ünïcödé',
  '😀',
  '\u0000',
  '\u0085',
  '\u2028',
  'back\\slash',
  'line\nbreak',
  'end\n',
  'x'.repeat(2000),
  'Bearer $glidepath-relay-token',
  'registry.k8s.io/kubectl:v1.28.15',
  'new+confirmed',
  '17 */6 * * *',
  'hangar.io/release-tracked=true',
];

const scalar = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.oneof(
  fc.constantFrom('name', 'metadata', 'app.kubernetes.io/name', 'a_b', 'on', 'y', '1', 'x-y', 'k.z/w'),
  fc.string(),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, scalar, tie('map'), tie('seq')),
  map: fc.dictionary(key, tie('node'), { maxKeys: 5 }),
  seq: fc.array(tie('node'), { maxLength: 4 }),
})).node;

/** The reference: each document through writeYaml11, joined as cdk8s's Yaml.stringify joins documents. */
function reference(...docs: unknown[]): string {
  return docs.map((doc) => (doc === undefined ? '\n' : writeYaml11(doc))).join('---\n');
}

describe('writeYaml11', () => {
  it(
    "writes what cdk8s's Yaml.stringify writes, but for quotes: the yaml library reads both as the same value",
    ALSO_COVERED,
    () => {
      fc.assert(
        fc.property(value, (doc) => {
          expect(parse(writeYaml11(doc), { version: '1.1' })).toEqual(parse(Yaml.stringify(doc), { version: '1.1' }));
        }),
        { numRuns: propertyRuns(40), seed: 20261201 },
      );
    },
  );

  it('double-quotes what Go reads as a number or a merge, which Yaml.stringify writes plain', () => {
    expect(Yaml.stringify({ a: '0o17', b: '<<', '0o17': 'k' })).toBe('a: 0o17\nb: <<\n0o17: k\n');
    expect(writeYaml11({ a: '0o17', b: '<<', '0o17': 'k' })).toBe('a: "0o17"\nb: !!str "<<"\n"0o17": k\n');
  });
});

describe('stringifyYaml', () => {
  it('writes the bytes writeYaml11 writes, for random JSON documents', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 3 }), (docs) => {
        expect(stringifyYaml(...docs)).toBe(reference(...docs));
      }),
      { numRuns: propertyRuns(60), seed: 20261129 },
    );
  });

  it(
    'writes the bytes writeYaml11 writes, for every tricky string as a key, a value and a list item',
    ALSO_COVERED,
    () => {
      for (const text of TRICKY) {
        const doc = { [text]: text, list: [text, { [text]: [text] }], nested: { inner: text } };
        expect(stringifyYaml(doc), JSON.stringify(text)).toBe(reference(doc));
      }
    },
  );

  it('writes the bytes writeYaml11 writes, for every chart of a cluster', () => {
    const charts = buildClusterCharts(
      clusterConfig({ veridor: { image: 'registry.test/veridor:1.0.0', clusterTemplate: true } }),
    );
    for (const chart of charts) expect(stringifyYaml(...chart.toJson())).toBe(reference(...chart.toJson()));
  });
});
