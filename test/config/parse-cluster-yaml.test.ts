/**
 * The cluster file as YAML: duplicate keys are refused in one pass over each mapping (the yaml library's own check
 * compared every key with every earlier one: a 970 KB file with 70,000 context keys took 32 to 36 s to load; `npm
 * run bench` has the row), comments are read as the lexer reads them, and a file with very many problems places
 * each one without searching its mapping again.
 */
import { describe, expect, it } from 'vitest';
import { extraDataProblems } from '../../src/notifications/configmap/key-problems';
import { parseClusterYaml } from '../../src/config/parse-cluster-yaml';
import { problemsOf } from '../helpers/cluster-files';

const UNIQUE = 'not valid YAML: Map keys must be unique';
const TWICE = 'is given twice in its mapping (first on line';

function problems(text: string): string[] {
  const parsed = parseClusterYaml(text);
  return 'problems' in parsed ? parsed.problems : [];
}

describe('duplicate keys', () => {
  it('are refused wherever they are, at the repeated key', () => {
    expect(problems('name: a\nname: b\n')).toEqual([`line 2, column 1: ${UNIQUE}: name ${TWICE} 1); keep one of them`]);
    expect(problems('argocd:\n  context:\n    a: x\n    b: y\n    a: z\n')).toEqual([
      `line 5, column 5: ${UNIQUE}: argocd.context.a ${TWICE} 3); keep one of them`,
    ]);
    expect(problems('relay: { ip: 1.2.3.4, port: 1, ip: 5.6.7.8 }\n')).toEqual([
      `line 1, column 32: ${UNIQUE}: relay.ip ${TWICE} 1); keep one of them`,
    ]);
    expect(problems('a: [{ x: 1 }, { x: 2, x: 3 }]\n')).toEqual([
      `line 1, column 23: ${UNIQUE}: a[1].x ${TWICE} 1); keep one of them`,
    ]);
    expect(problems('a:\n  1: x\n  0x1: y\n')).toEqual([
      `line 3, column 3: ${UNIQUE}: a["1"] ${TWICE} 2); keep one of them`,
    ]);
  });

  it('are told apart as the yaml library tells them apart (a quoted "1" is not the number 1)', () => {
    expect(problems('a:\n  b: x\n  "b ": y\n  "1": z\n  1: w\n')).toEqual([]);
    expect(problems('a:\n  \'b\': x\n  "b": y\n')).toEqual([
      `line 3, column 3: ${UNIQUE}: a.b ${TWICE} 2); keep one of them`,
    ]);
  });

  it('are refused beside every other YAML error of the file', () => {
    expect(problems('a: [\nb: 1\nb: 2\n')).toEqual(
      expect.arrayContaining([`line 3, column 1: ${UNIQUE}: b ${TWICE} 2); keep one of them`]),
    );
  });

  it('in a cluster file name the file', () => {
    expect(problemsOf('name: prod\nkubernetesVersion: "1.28"\nname: prod\n')).toEqual([
      `clusters/prod.yaml: line 3, column 1: ${UNIQUE}: name ${TWICE} 1); keep one of them`,
    ]);
  });

  it('name a key that looks like a secret only as the secret detector shows it', () => {
    const token = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    expect(problems(`c:\n  ${token}: 1\n  ${token}: 2\n`)).toEqual([
      `line 3, column 3: ${UNIQUE}: c[ghp_… 40 characters] ${TWICE} 2); keep one of them`,
    ]);
  });
});

describe('two YAML documents in one file', () => {
  it("are refused as one cluster per file, not with the yaml library's advice", () => {
    expect(problemsOf('name: prod\n---\nname: staging\n')).toEqual([
      'clusters/prod.yaml: line 2, column 1: not valid YAML for a cluster file: it holds more than one document ' +
        '(a "---" line starts another); one cluster per file: put each cluster in its own file',
    ]);
  });
});

describe('duplicate keys inside a ConfigMap value (extraData), read as YAML 1.1', () => {
  // The engine keeps the last of them (npm run judge:engine): the loader takes them, verify warns at the line.
  it('are a warning at the line of the repeated key, and YAML 1.1 numbers count as the same key', () => {
    const file = (text: string) =>
      `name: prod\nrollouts:\n  extraData:\n    template.team: |\n${text.replace(/^/gm, '      ')}`;
    expect(problemsOf(file('message: a\nmessage: b\n')).filter((p) => p.includes('extraData'))).toEqual([]);
    const warnings = (text: string) =>
      extraDataProblems('rollouts', { 'template.team': text }).filter((p) => p.severity === 'warning');
    expect(warnings('message: a\nmessage: b\n')).toEqual([
      {
        key: 'template.team',
        line: 2,
        message: 'duplicate key "message": the engine keeps the last one and ignores the others',
        severity: 'warning',
      },
    ]);
    expect(warnings('webhook:\n  x:\n    1: a\n    0x1: b\n').map((p) => p.line)).toEqual([4]);
  });
});

describe('a repeated key that is a secret of the environment', () => {
  it('is masked, a number too', () => {
    const known = [
      { name: 'DB_PASSWORD', value: 'S3cr3tPassw0rdXYZ' },
      { name: 'PIN_PASSWORD', value: '12345678901' },
    ];
    const text = 'extra:\n  S3cr3tPassw0rdXYZ: 1\n  S3cr3tPassw0rdXYZ: 2\n  12345678901: 1\n  12345678901: 2\n';
    const parsed = parseClusterYaml(text, known);
    const found = 'problems' in parsed ? parsed.problems : [];
    expect(found).toEqual([
      `line 3, column 3: ${UNIQUE}: extra[… 17 characters] ${TWICE} 2); keep one of them`,
      `line 5, column 3: ${UNIQUE}: extra[… 11 characters] ${TWICE} 4); keep one of them`,
    ]);
  });
});

describe('markup: comments, anchors and tags', () => {
  it('are what the lexer reads as such, with their lines', () => {
    const parsed = parseClusterYaml(
      '# one\nname: "a # not one &x !y"\nrelay: | # two\n  # not one either\nx: &anchor !!str 1 # three\ny: *anchor\n',
    );
    expect('problems' in parsed ? parsed.problems : parsed.markup()).toEqual([
      { kind: 'comment', line: 1, text: ' one' },
      { kind: 'comment', line: 3, text: ' two' },
      { kind: 'anchor', line: 5, text: 'anchor' },
      { kind: 'tag', line: 5, text: '!str' },
      { kind: 'comment', line: 5, text: ' three' },
    ]);
  });
});

describe('nesting', () => {
  it('deeper than the YAML reader can follow: says so, not "Maximum call stack size exceeded"', () => {
    const found = problems(`name: prod\nx: ${'['.repeat(5_000)}${']'.repeat(5_000)}\n`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /^line 2, column \d+: not a cluster file: its lists and mappings nest thousands of levels/,
    );
  });
});

describe('a tab used as indentation', () => {
  it('is told once, at the tab, with the fix, and no follow-on parser errors (before: five more messages)', () => {
    const text =
      'name: prod\nrelay:\n  port: 30880\n\tip: 10.0.0.1\n  scheme: http\ntracked:\n  namespaces:\n\t\t- a\n';
    const tab =
      'not valid YAML: a tab is used as indentation; YAML indents with spaces only: replace the tab with spaces';
    expect(problems(text)).toEqual([`line 4, column 1: ${tab}`, `line 8, column 1: ${tab}`]);
  });

  it('a tab after the indentation is no error', () => {
    expect(problems('name: prod\nrelay:\n  ip:\t10.0.0.1\n')).toEqual([]);
  });
});
