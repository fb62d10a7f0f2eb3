import { describe, expect, it } from 'vitest';
import { checkPodSecurity, POD_SECURITY_RULES } from '../../src/verify/pod-security';
import { findPodTemplates } from '../../src/verify/pod-templates';
import { contextFor, handBuilt, objectsFor, planted } from './objects';

const context = contextFor();
const objects = objectsFor(context);

/** The analysis Job's pod inside the AnalysisTemplate, and the prune CronJob's pod. */
const analysisPod = (m: any) => m.spec.metrics[0].provider.job.spec.template;
const cronJobPod = (m: any) => m.spec.jobTemplate.spec.template;
const HOLDERS = [
  ['AnalysisTemplate', analysisPod, 'AnalysisTemplate/billing/veridor-gate'],
  ['CronJob', cronJobPod, 'CronJob/argo-rollouts/glidepath-notified-prune'],
] as const;

/** One planted violation per control of the Pod Security Standards (baseline, then restricted). */
const PLANTS: readonly [rule: string, field: RegExp, plant: (template: any) => void][] = [
  [
    'host-process',
    /securityContext\.windowsOptions\.hostProcess/,
    (t) => (t.spec.securityContext.windowsOptions = { hostProcess: true }),
  ],
  ['host-namespaces', /\.hostNetwork is true/, (t) => (t.spec.hostNetwork = true)],
  ['host-namespaces', /\.hostPID is true/, (t) => (t.spec.hostPID = true)],
  ['host-namespaces', /\.hostIPC is true/, (t) => (t.spec.hostIPC = true)],
  [
    'privileged',
    /containers\[0\]\.securityContext\.privileged is true/,
    (t) => (t.spec.containers[0].securityContext.privileged = true),
  ],
  [
    'capabilities-baseline',
    /capabilities\.add has "SYS_ADMIN"/,
    (t) => (t.spec.containers[0].securityContext.capabilities.add = ['SYS_ADMIN']),
  ],
  ['host-path-volumes', /hostPath volume/, (t) => t.spec.volumes.push({ name: 'host', hostPath: { path: '/' } })],
  [
    'host-ports',
    /ports\[0\]\.hostPort is 8080/,
    (t) => (t.spec.containers[0].ports = [{ containerPort: 8080, hostPort: 8080 }]),
  ],
  [
    'apparmor',
    /metadata\.annotations\["container\.apparmor\.security\.beta\.kubernetes\.io\/\w+"\] is "unconfined"/,
    (t) => {
      t.metadata = {
        annotations: { [`container.apparmor.security.beta.kubernetes.io/${t.spec.containers[0].name}`]: 'unconfined' },
      };
    },
  ],
  [
    'apparmor',
    /appArmorProfile\.type is "Unconfined"/,
    (t) => (t.spec.securityContext.appArmorProfile = { type: 'Unconfined' }),
  ],
  ['selinux', /seLinuxOptions\.type is "spc_t"/, (t) => (t.spec.securityContext.seLinuxOptions = { type: 'spc_t' })],
  [
    'selinux',
    /seLinuxOptions\.user is set/,
    (t) => (t.spec.containers[0].securityContext.seLinuxOptions = { user: 'system_u' }),
  ],
  ['proc-mount', /procMount is "Unmasked"/, (t) => (t.spec.containers[0].securityContext.procMount = 'Unmasked')],
  [
    'seccomp-baseline',
    /seccompProfile\.type is "Unconfined"/,
    (t) => (t.spec.containers[0].securityContext.seccompProfile = { type: 'Unconfined' }),
  ],
  [
    'sysctls',
    /"kernel\.msgmax" is not a safe sysctl/,
    (t) => (t.spec.securityContext.sysctls = [{ name: 'kernel.msgmax', value: '1' }]),
  ],
  [
    'volume-types',
    /uses nfs/,
    (t) => t.spec.volumes.push({ name: 'share', nfs: { server: 'nfs.example', path: '/' } }),
  ],
  [
    'allow-privilege-escalation',
    /allowPrivilegeEscalation is not set/,
    (t) => delete t.spec.containers[0].securityContext.allowPrivilegeEscalation,
  ],
  [
    'allow-privilege-escalation',
    /allowPrivilegeEscalation is true/,
    (t) => (t.spec.containers[0].securityContext.allowPrivilegeEscalation = true),
  ],
  [
    'run-as-non-root',
    /runAsNonRoot is not set and the pod does not set it true/,
    (t) => {
      delete t.spec.securityContext.runAsNonRoot;
      delete t.spec.containers[0].securityContext.runAsNonRoot;
    },
  ],
  ['run-as-non-root', /runAsNonRoot is false/, (t) => (t.spec.containers[0].securityContext.runAsNonRoot = false)],
  ['run-as-user', /runAsUser is 0/, (t) => (t.spec.containers[0].securityContext.runAsUser = 0)],
  [
    'seccomp-restricted',
    /seccompProfile\.type is not set on the container and the pod/,
    (t) => {
      delete t.spec.securityContext.seccompProfile;
      delete t.spec.containers[0].securityContext.seccompProfile;
    },
  ],
  [
    'capabilities-restricted',
    /capabilities\.drop does not include ALL/,
    (t) => (t.spec.containers[0].securityContext.capabilities = { drop: ['NET_RAW'] }),
  ],
  [
    'capabilities-restricted',
    /only NET_BIND_SERVICE may be added/,
    (t) => (t.spec.containers[0].securityContext.capabilities.add = ['CHOWN']),
  ],
];

describe('pod security (restricted profile)', () => {
  it('passes every rendered pod template of a cluster, and checks each control on each of them', () => {
    const report = checkPodSecurity(objects);
    expect(report.violations).toEqual([]);
    const pods = objects.flatMap((o) => findPodTemplates(o.manifest as Record<string, unknown>));
    expect(pods.length).toBeGreaterThanOrEqual(3); // two analysis Jobs (shop, billing) and the prune CronJob
    expect(report.checks).toBe(pods.length * POD_SECURITY_RULES.length);
  });

  it('has a planted violation for every control', () => {
    expect(new Set(PLANTS.map(([rule]) => rule))).toEqual(new Set(POD_SECURITY_RULES));
  });

  describe.each(HOLDERS)('in the %s pod', (kind, podOf, ref) => {
    it.each(PLANTS)('%s: %s', (rule, field, plant) => {
      const bad = planted(objects, kind, (m) => {
        const template = podOf(m);
        template.spec.volumes ??= [];
        plant(template);
      });
      const { violations } = checkPodSecurity([bad]);
      expect(violations.map((v) => v.rule)).toContain(`pod-security/${rule}`);
      const violation = violations.find((v) => v.rule === `pod-security/${rule}`)!;
      expect(violation.object).toBe(ref);
      expect(violation.message).toMatch(field);
      expect(violation.fix).not.toBe('');
    });
  });

  it('finds pod templates in any kind, e.g. a hand-built Deployment and a bare Pod', () => {
    const container = { name: 'app', image: 'app:1' };
    const deployment = handBuilt({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { template: { spec: { containers: [container] } } },
    });
    const pod = handBuilt({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'debug', namespace: 'shop' },
      spec: { containers: [container] },
    });
    const { violations } = checkPodSecurity([deployment, pod]);
    expect(violations).toContainEqual(
      expect.objectContaining({
        object: 'Deployment/shop/web',
        rule: 'pod-security/run-as-non-root',
        message: expect.stringContaining('spec.template.spec.containers[0].securityContext.runAsNonRoot'),
      }),
    );
    expect(violations).toContainEqual(
      expect.objectContaining({
        object: 'Pod/shop/debug',
        rule: 'pod-security/capabilities-restricted',
        message: expect.stringContaining('spec.containers[0].securityContext.capabilities.drop does not include ALL'),
      }),
    );
  });

  it('checks init containers too', () => {
    const bad = planted(objects, 'CronJob', (m) => {
      const spec = cronJobPod(m).spec;
      spec.initContainers = [
        { ...structuredClone(spec.containers[0]), name: 'init', securityContext: { privileged: true } },
      ];
    });
    const { violations } = checkPodSecurity([bad]);
    expect(violations).toContainEqual(
      expect.objectContaining({
        rule: 'pod-security/privileged',
        message: expect.stringContaining('initContainers[0]'),
      }),
    );
  });
});
