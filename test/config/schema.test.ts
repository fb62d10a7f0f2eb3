import { describe, expect, it } from 'vitest';
import { loadClusterFile } from '../../src/clusters';
import { clusterDir, problemsOf, validClusterFile } from '../helpers/cluster-files';
import { join } from 'node:path';

describe('cluster file schema', () => {
  it('accepts a valid file and fills the defaults', () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const result = loadClusterFile(join(dir, 'prod.yaml'));
    if ('problems' in result) throw new Error(result.problems.join('\n'));
    const { config } = result;
    expect(config.relay).toEqual({
      ip: '10.0.0.7',
      port: 30880,
      scheme: 'http',
      path: '/outcome/prod',
      tokenSecretKey: 'glidepath-relay-token',
    });
    expect(config.rollouts).toEqual({
      namespace: 'argo-rollouts',
      resyncSeconds: 900,
      heartbeatBucketSeconds: 60,
      delivery: 'configmap',
      extraData: {},
    });
    expect(config.argocd).toMatchObject({ delivery: 'configmap', extraData: {} });
    expect(config.veridor.namespaces).toEqual(['shop', 'billing']);
    expect(config.veridor).toMatchObject({
      clusterTemplate: false,
      configMap: 'veridor-config',
      secret: 'veridor-credentials',
      failOn: 'new+confirmed',
      waitForTargetSeconds: 60,
    });
    expect(config.gitops).toEqual({
      repo: 'https://github.com/example/gitops.git',
      path: 'clusters/prod/glidepath',
      valuesPath: 'clusters/prod/glidepath-values',
      baseBranch: 'main',
    });
    expect(config.prune.schedule).toBe('17 */4 * * *');
  });

  it('names the key a typo meant: a misspelt section or field', () => {
    const { relay, tracked, ...file } = validClusterFile();
    expect(problemsOf({ ...file, relay: { ...relay, prot: relay.port, port: undefined }, trackd: tracked })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^clusters\/prod\.yaml: relay\.prot: unknown key; allowed keys here: .*; did you mean port\?$/,
        ),
        expect.stringMatching(
          /^clusters\/prod\.yaml: trackd: unknown key; allowed keys here: .*; did you mean tracked\?$/,
        ),
      ]),
    );
  });

  it('refuses an unknown key and names the allowed ones', () => {
    const file = validClusterFile();
    expect(problemsOf({ ...file, relay: { ...file.relay, token: 'abc' } })).toEqual([
      'clusters/prod.yaml: relay.token: unknown key; allowed keys here: ip, host, port, scheme, path, tokenSecretKey',
    ]);
    expect(problemsOf({ ...file, colour: 'blue' })[0]).toMatch(
      /^clusters\/prod\.yaml: colour: unknown key; allowed keys here: name, /,
    );
  });

  it('a misspelt section holding a field named like a secret: only the misspelling, not a secret, is reported', () => {
    const { relay, ...file } = validClusterFile();
    expect(problemsOf({ ...file, rely: { ...relay, tokenSecretKey: 'glidepath-relay-token' } })).toEqual([
      'clusters/prod.yaml: relay: is required (expected object); add it (docs/cluster-file.md describes each field)',
      expect.stringMatching(/^clusters\/prod\.yaml: rely: unknown key; allowed keys here: .*; did you mean relay\?$/),
    ]);
    // A value that looks like a secret is still refused as one, wherever it is.
    expect(problemsOf({ ...file, rely: { ...relay, tokenSecretKey: `ghp_${'a1B2'.repeat(9)}` } })).toContainEqual(
      expect.stringMatching(/^clusters\/prod\.yaml: rely\.tokenSecretKey: .*GitHub/),
    );
  });

  it('refuses a wrong type with what it got', () => {
    const file = validClusterFile();
    expect(problemsOf({ ...file, relay: { ...file.relay, port: '30880' } })).toEqual([
      'clusters/prod.yaml: relay.port: expected number, got string "30880"',
    ]);
  });

  it('refuses a bad IP', () => {
    const file = validClusterFile();
    expect(problemsOf({ ...file, relay: { ...file.relay, ip: '192.168.1.278' } })).toEqual([
      'clusters/prod.yaml: relay.ip: must be an IPv4 or IPv6 address, e.g. 192.168.1.78; got "192.168.1.278"',
    ]);
  });

  it('wants exactly one of relay.ip and relay.host', () => {
    const file = validClusterFile();
    expect(problemsOf({ ...file, relay: { port: 80 } })).toEqual([
      'clusters/prod.yaml: relay: set exactly one of relay.ip or relay.host',
    ]);
    expect(problemsOf({ ...file, relay: { port: 80, ip: '10.0.0.1', host: 'relay.example.com' } })).toEqual([
      'clusters/prod.yaml: relay: set exactly one of relay.ip or relay.host',
    ]);
  });

  it('refuses a bad cron expression and says which field is wrong', () => {
    const file = validClusterFile();
    expect(problemsOf({ ...file, prune: { ...file.prune, schedule: '61 * * * *' } })).toEqual([
      'clusters/prod.yaml: prune.schedule: "61 * * * *" is not a CronJob schedule: minute: 61 is out of range 0-59',
    ]);
    expect(problemsOf({ ...file, prune: { ...file.prune, schedule: 'every hour' } })).toEqual([
      'clusters/prod.yaml: prune.schedule: "every hour" is not a CronJob schedule: has 2 fields; write five ' +
        '(minute hour day-of-month month day-of-week), e.g. "17 */6 * * *"',
    ]);
    // A schedule is shown whole up to 64 characters: its message is about a field that may be past the 16th.
    expect(problemsOf({ ...file, prune: { ...file.prune, schedule: '*/15 9-17 * * 1-5,7-8' } })).toEqual([
      'clusters/prod.yaml: prune.schedule: "*/15 9-17 * * 1-5,7-8" is not a CronJob schedule: day of week: 8 is ' +
        'out of range 0-6 (in "7-8")',
    ]);
  });

  it('refuses bad, untagged and latest image references', () => {
    const file = validClusterFile();
    expect(problemsOf({ ...file, prune: { image: 'Registry/Kubectl::1' } })).toEqual([
      'clusters/prod.yaml: prune.image: "Registry/Kub…" (19 characters) has uppercase letters in its ' +
        'repository name; Kubernetes accepts lowercase only',
    ]);
    expect(problemsOf({ ...file, prune: { image: 'registry.k8s.io/kubectl' } })).toEqual([
      'clusters/prod.yaml: prune.image: "registry.k8s.io/kubectl" has no tag or digest; pin it: add ' +
        ':<version> or @sha256:<digest>',
    ]);
    expect(problemsOf({ ...file, prune: { image: 'bitnami/kubectl:latest' } })).toEqual([
      'clusters/prod.yaml: prune.image: "bitnami/kubectl:latest" uses the moving tag "latest"; pin a ' +
        'version tag or a digest',
    ]);
  });

  it('refuses the Veridor placeholder image and says how to get a real one', () => {
    const problems = problemsOf({ ...validClusterFile(), veridor: { image: 'ghcr.io/veridor-authz/veridor:0.1.0' } });
    expect(problems).toEqual([
      'clusters/prod.yaml: veridor.image: ghcr.io/veridor-authz/veridor:0.1.0 is the documented placeholder ' +
        "and does not exist; build the image from Veridor's Dockerfile, push it to your registry and set " +
        'veridor.image to it',
    ]);
  });

  it('requires the fields that have no sane default', () => {
    const { veridor: _v, ...file } = validClusterFile();
    expect(problemsOf(file)).toEqual([
      'clusters/prod.yaml: veridor: is required (expected object); add it (docs/cluster-file.md describes each field)',
    ]);
  });

  it('refuses duplicate and empty namespace lists', () => {
    const file = validClusterFile();
    expect(problemsOf({ ...file, tracked: { namespaces: ['shop', 'shop'] } })).toEqual([
      'clusters/prod.yaml: tracked.namespaces[1]: shop is listed twice; list each namespace once',
    ]);
    expect(problemsOf({ ...file, tracked: { namespaces: [] } })).toEqual([
      'clusters/prod.yaml: tracked.namespaces: list at least one namespace',
    ]);
    expect(problemsOf({ ...file, tracked: { namespaces: ['Shop_1'] } })).toEqual([
      'clusters/prod.yaml: tracked.namespaces[0]: must be a namespace name (lowercase letters, digits and ' +
        '"-", at most 63 characters)',
    ]);
  });

  it('refuses a gitops path that escapes the repository', () => {
    const file = validClusterFile();
    for (const path of ['../elsewhere', '/etc', 'clusters/../../x']) {
      expect(problemsOf({ ...file, gitops: { ...file.gitops, path } })).toEqual([
        'clusters/prod.yaml: gitops.path: must be a relative folder inside the gitops repo, without "." or ' +
          '".." segments, e.g. clusters/prod/glidepath',
      ]);
    }
  });

  it('reports every problem of a file at once', () => {
    const file = validClusterFile();
    const problems = problemsOf({ ...file, name: 'Prod', relay: { ...file.relay, ip: 'nope', port: 0 } });
    expect(problems).toHaveLength(3);
    expect(problems.map((p) => p.split(': ')[1])).toEqual(['name', 'relay.ip', 'relay.port']);
  });

  it('refuses text that is not YAML, and YAML that is not a mapping', () => {
    expect(problemsOf('name: prod\nrelay: [unclosed\n')[0]).toMatch(
      /^clusters\/prod\.yaml: line \d+, column \d+: not valid YAML: /,
    );
    expect(problemsOf('- just\n- a list\n')).toEqual([
      'clusters/prod.yaml: the file must be a YAML mapping of cluster settings (name, relay, ...), got a list',
    ]);
    expect(problemsOf('name: a\nname: b\n')[0]).toMatch(
      /^clusters\/prod\.yaml: line 2, column 1: not valid YAML: Map keys must be unique/,
    );
  });

  it('refuses a YAML alias bomb instead of expanding it', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
      .concat(
        Array.from({ length: 8 }, (_, i) => {
          const prev = i === 0 ? 'a' : `l${i - 1}`;
          return `l${i}: &l${i} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`;
        }),
      )
      .join('\n');
    expect(problemsOf(bomb)[0]).toMatch(
      /^clusters\/prod\.yaml: line 2, column 10: YAML: .*alias.*; a cluster file needs no aliases$/i,
    );
  });
});

describe('cron schedules', () => {
  it('refuses white space Kubernetes would not split on', () => {
    const file = validClusterFile();
    expect(problemsOf({ ...file, prune: { ...file.prune, schedule: '17\ufeff*/6 * * *' } })).toEqual([
      'clusters/prod.yaml: prune.schedule: "17?*/6 * * *" is not a CronJob schedule: has 4 fields; write ' +
        'five (minute hour day-of-month month day-of-week), e.g. "17 */6 * * *" (it holds U+FEFF, which ' +
        'Kubernetes reads as neither a space nor a digit)',
    ]);
  });
});
