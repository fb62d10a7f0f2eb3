/**
 * Characters Kubernetes' YAML reader (sigs.k8s.io/yaml, YAML 1.1) cannot read back as written are refused at load,
 * with the field (issue 21, item 6): the line breaks U+0085, U+2028 and U+2029, which JavaScript keeps inside a
 * line, DEL and the C1 controls, U+FFFE and U+FFFF, and an unpaired surrogate. The cron reader takes the line
 * breaks for Go white space, so a schedule holding one is refused too. Measured with sigs.k8s.io/yaml v1.3.0 on
 * what the writer made of each: U+2028/U+2029 raw gave "could not find expected ':'", U+0085 became a space,
 * DEL, C1, U+FFFE and U+FFFF "control characters are not allowed", a lone surrogate "invalid Unicode character escape".
 */
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { unreadableCharacterReason } from '../../src/config/unreadable-characters';
import { problemsOf, validClusterFile } from '../helpers/cluster-files';

const base = () => validClusterFile({ name: 'prod' });

describe('characters Go cannot read back', () => {
  it.each([
    [
      'U+2028 as an escape in argocd.context',
      `argocd:\n  namespace: argocd-apps\n  context:\n    note: "a\\Lb"\n`,
      'argocd.context.note: holds U+2028 (LINE SEPARATOR) (character 2)',
    ],
    [
      'U+2028 written raw',
      `argocd:\n  namespace: argocd-apps\n  context:\n    note: a\u2028b\n`,
      'argocd.context.note: holds U+2028 (LINE SEPARATOR)',
    ],
    [
      'U+2029 in a key',
      `argocd:\n  namespace: argocd-apps\n  context:\n    "no\\u2029te": x\n`,
      'argocd.context["no?te"]: the key holds U+2029 (PARAGRAPH SEPARATOR)',
    ],
    [
      'U+0085 in a schedule, which the cron reader takes for a space',
      `prune:\n  image: registry.test/node:22\n  schedule: "17\\N*/6 * * *"\n`,
      'prune.schedule: holds U+0085 (NEXT LINE)',
    ],
    [
      'U+2028 in a schedule',
      `prune:\n  image: registry.test/node:22\n  schedule: "17\\u2028*/6 * * *"\n`,
      'prune.schedule: holds U+2028',
    ],
    [
      'DEL as an escape',
      `argocd:\n  namespace: argocd-apps\n  context:\n    note: "a\\x7fb"\n`,
      'argocd.context.note: holds the character U+007F',
    ],
    [
      'U+FFFE written raw',
      `argocd:\n  namespace: argocd-apps\n  context:\n    note: a\ufffeb\n`,
      'argocd.context.note: holds the character U+FFFE',
    ],
    [
      'an unpaired surrogate',
      `argocd:\n  namespace: argocd-apps\n  context:\n    note: "a\\ud800b"\n`,
      'argocd.context.note: holds an unpaired surrogate U+D800',
    ],
    [
      "U+2028 in a team's ConfigMap value",
      `rollouts:\n  extraData:\n    template.team: "message: a\\Lb\\n"\n`,
      'rollouts.extraData["template.team"]: holds U+2028',
    ],
  ])('%s is refused with its field', (_case, yaml, message) => {
    const { argocd: _a, prune: _p, ...rest } = base();
    const argocd = yaml.includes('argocd:') ? '' : 'argocd:\n  namespace: argocd-apps\n';
    const prune = yaml.includes('prune:') ? '' : 'prune:\n  image: registry.test/node:22\n';
    const text = `${stringify(rest)}${argocd}${prune}${yaml}`;
    const problems = problemsOf(text);
    expect(problems, problems.join('\n')).toContainEqual(expect.stringContaining(`clusters/prod.yaml: ${message}`));
  });

  it.each([
    ['a no-break space', '\u00a0'],
    ['an ideographic space', '\u3000'],
    ['a zero-width space', '\u200b'],
    ['a byte order mark inside a value', '\ufeff'],
    ['an emoji', '\u{1F680}'],
    ['a tab', '\t'],
    ['a private-use character', '\ue000'],
  ])('%s is read back as written, and loads', (_case, character) => {
    expect(unreadableCharacterReason(`a${character}b`)).toBeUndefined();
    expect(
      problemsOf({ ...base(), argocd: { namespace: 'argocd-apps', context: { note: `a${character}b` } } }),
    ).toEqual([]);
  });
});
