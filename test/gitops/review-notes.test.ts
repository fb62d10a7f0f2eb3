import { describe, expect, it } from 'vitest';
import { valuesFile } from '../../src/gitops/cluster-values';
import { notesContext, reviewNotes, wordDiff } from '../../src/gitops/review-notes';
import { clusterConfig } from '../helpers/cluster-files';

const base = clusterConfig({ name: 'prod' });
const withCrew = clusterConfig({
  name: 'prod',
  tracked: { namespaces: ['shop', 'billing', 'crew-api'] },
  veridor: { image: 'registry.test/veridor:1.0.0', namespaces: ['shop'] },
});

describe('review notes', () => {
  it(
    'lists the changed values and a checklist for each new tracked namespace; Veridor items only where the gate ' +
      'runs',
    () => {
      const text = reviewNotes([valuesFile(base)], [valuesFile(withCrew)], notesContext(withCrew.veridor), []).join(
        '\n',
      );
      expect(text).toContain('- `tracked.namespaces`: + crew-api\n- `veridor.namespaces`: - billing');
      expect(text).toContain('- [ ] `crew-api`: label its Rollouts `hangar.io/release-tracked=true`');
      expect(text).not.toContain('`crew-api`: create the ConfigMap');
      const everywhere = reviewNotes(
        [valuesFile(base)],
        [valuesFile(withCrew)],
        notesContext({ ...withCrew.veridor, clusterTemplate: true }),
        [],
      ).join('\n');
      expect(everywhere).toContain(
        '- [ ] `crew-api`: create the ConfigMap `veridor-config` (key `veridor.json`) for the Veridor gate',
      );
      expect(everywhere).toContain('- [ ] `crew-api`: create the Secret `veridor-credentials`');
    },
  );

  it("masks a secret-looking word of a ConfigMap's word diff (a token the base holds in the data)", () => {
    const token = 'ghp_' + 'Zq7Lm2Xc9Vb4Nk8Hj3Gf6Ds1Aw5Er0Ty2Ua1';
    const configMap = (line: string) => ({
      path: 'a.k8s.yaml',
      content: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: ns\ndata:\n  k: "${line}"\n`,
    });
    const long = 'x'.repeat(60);
    const text = reviewNotes(
      [configMap(`${long} token=${token} old`)],
      [configMap(`${long} token=$relay-token new`)],
      notesContext(base.veridor),
      [],
    ).join('\n');
    expect(text).toContain('changed `k`');
    expect(text).not.toContain(token.slice(4));
    expect(text).toMatch(/\S… \d+ characters/);
    // The mask stays inside its marker: `[-ghp_… 40 characters-]`.
    expect(text).toMatch(/\[-[^\]]*… \d+ characters-\]/);
  });

  it('the word diff legend comes only with a word diff: a short changed value has none', () => {
    const configMap = (value: string) => ({
      path: 'a.k8s.yaml',
      content: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: ns\ndata:\n  k: "${value}"\n`,
    });
    const notes = (was: string, now: string) =>
      reviewNotes([configMap(was)], [configMap(now)], notesContext(base.veridor), []).join('\n');
    const short = notes('600', '300');
    expect(short).toContain('changed `k`');
    expect(short).not.toContain('Word diffs');
    expect(notes(`${'x'.repeat(120)} 600`, `${'x'.repeat(120)} 300`)).toContain('_Word diffs: ');
  });

  it('a first render into an empty folder: only the checklist, for every tracked namespace', () => {
    const text = reviewNotes([], [valuesFile(base)], notesContext(base.veridor), []).join('\n');
    expect(text).not.toContain('values changed');
    expect(text).toContain('`shop`: create the ConfigMap');
    expect(text).toContain('`billing`: create the ConfigMap');
  });

  it('a base folder without a values file: says the old values are unknown instead of calling them all new', () => {
    const text = reviewNotes(
      [{ path: 'x.k8s.yaml', content: 'kind: ConfigMap\n' }],
      [valuesFile(base)],
      notesContext(base.veridor),
      [],
    ).join('\n');
    expect(text).toMatch(/the base has no record of the values it was rendered from/);
    expect(text).not.toContain('create the ConfigMap');
  });

  it('a word diff keeps the text around each change, not the whole line', () => {
    const before = `oncePer: ${'rollout.status.currentPodHash + "/" + '.repeat(6)}string(int(time.Now().Unix() / 600))`;
    const diff = wordDiff(before, before.replace('600', '300'));
    expect(diff).toMatch(/^….{40}\[-600-\]\{\+300\+\}\)\)$/);
    expect(diff.length).toBeLessThan(70);
  });
});
