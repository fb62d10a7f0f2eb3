/** The prune fields of the cluster file, refused at the config boundary with messages that say the fix. */
import { describe, expect, it } from 'vitest';
import { defaultPruneImage } from '../../src/config/prune-image';
import { clusterConfig, problemsOf, validClusterFile } from '../helpers/cluster-files';

const file = validClusterFile();

describe('prune fields of the cluster file', () => {
  it("defaults: every 6 hours, glidepath's keys, the pinned Node.js image, a Role per namespace, in Rollouts'", () => {
    expect(clusterConfig().prune).toEqual({
      schedule: '17 */4 * * *',
      image: defaultPruneImage(),
      keys: 'glidepath',
      namespace: 'argo-rollouts',
      clusterScope: false,
    });
  });

  it('refuses a kubectl image, naming the default that replaces it', () => {
    for (const image of ['registry.k8s.io/kubectl:v1.28.15', 'bitnami/kubectl:1.28.15-debian-12-r3'])
      expect(problemsOf({ ...file, prune: { image } })).toEqual([
        expect.stringMatching(
          /^clusters\/prod\.yaml: prune\.image: ".*is a kubectl image; the prune now runs a small Node\.js program .*remove prune\.image to use the default gcr\.io\/distroless\/nodejs22-debian12:nonroot@sha256:[0-9a-f]{64}/,
        ),
      ]);
  });

  it('refuses a prune.keys other than glidepath or all', () => {
    expect(problemsOf({ ...file, prune: { keys: 'team' as never } })).toHaveLength(1);
  });

  it('refuses a bad cron expression', () => {
    expect(problemsOf({ ...file, prune: { ...file.prune, schedule: '17 */6 * *' } })).toEqual([
      'clusters/prod.yaml: prune.schedule: "17 */6 * *" is not a CronJob schedule: has 4 fields; write five ' +
        '(minute hour day-of-month month day-of-week), e.g. "17 */6 * * *"',
    ]);
  });

  it('counts one field as one field', () => {
    expect(problemsOf({ ...file, prune: { ...file.prune, schedule: 'hourly' } })).toEqual([
      'clusters/prod.yaml: prune.schedule: "hourly" is not a CronJob schedule: has 1 field; write five ' +
        '(minute hour day-of-month month day-of-week), e.g. "17 */6 * * *"',
    ]);
  });

  it('refuses a schedule that never runs', () => {
    expect(problemsOf({ ...file, prune: { ...file.prune, schedule: '0 0 30 2 *' } })).toEqual([
      'clusters/prod.yaml: prune.schedule: "0 0 30 2 *" never runs (no date matches it); the prune would never happen',
    ]);
  });

  it('refuses a schedule that never runs when */1 in day-of-week is read as robfig/cron reads it', () => {
    // A star in day-of-week makes both day fields count: 31 February never comes.
    expect(problemsOf({ ...file, prune: { ...file.prune, schedule: '0 0 31 2 */1' } })).toEqual([
      'clusters/prod.yaml: prune.schedule: "0 0 31 2 */1" never runs (no date matches it); the prune would ' +
        'never happen',
    ]);
  });

  it('refuses a digest the kubelet refuses', () => {
    const image = `registry.k8s.io/kubectl@md5:${'0'.repeat(32)}`;
    expect(problemsOf({ ...file, prune: { image } })).toEqual([
      `clusters/prod.yaml: prune.image: "${image}" has a digest of the unsupported ` +
        `algorithm "md5"; Kubernetes accepts sha256, sha384, sha512 (lowercase)`,
    ]);
  });

  it('refuses :latest and untagged images, once each', () => {
    expect(problemsOf({ ...file, prune: { image: 'registry.k8s.io/kubectl:latest' } })).toEqual([
      'clusters/prod.yaml: prune.image: "registry.k8s.io/kubectl:latest" uses the moving tag "latest"; pin a ' +
        'version tag or a digest',
    ]);
    expect(problemsOf({ ...file, prune: { image: 'registry.k8s.io/kubectl' } })).toHaveLength(1);
  });

  it('refuses an empty or repeated tracked namespace list (the prune would have nothing to do)', () => {
    expect(problemsOf({ ...file, tracked: { namespaces: [] } })).toEqual([
      'clusters/prod.yaml: tracked.namespaces: list at least one namespace',
    ]);
    expect(problemsOf({ ...file, tracked: { namespaces: ['shop', 'shop'] } })).toEqual([
      'clusters/prod.yaml: tracked.namespaces[1]: shop is listed twice; list each namespace once',
    ]);
  });

  it.each(['v1.28', '1.28.3'])('a kubernetesVersion %s is reported once, without an image fix built on it', (v) => {
    expect(problemsOf({ ...file, kubernetesVersion: v })).toEqual([
      'clusters/prod.yaml: kubernetesVersion: must be a minor version in quotes, e.g. "1.28"',
    ]);
  });

  it('refuses a bad namespace', () => {
    expect(problemsOf({ ...file, prune: { ...file.prune, namespace: 'Argo_Rollouts' } })).toEqual([
      'clusters/prod.yaml: prune.namespace: must be a namespace name (lowercase letters, digits and "-", at ' +
        'most 63 characters)',
    ]);
  });
});
