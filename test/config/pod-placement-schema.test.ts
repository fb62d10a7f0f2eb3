/**
 * `prune.pod` and `veridor.pod` at load: what the API server refuses in a pod template is refused, naming the field;
 * what it accepts loads (an empty toleration key, operator or effect; an annotation key with capitals), with a
 * warning where it is likely a mistake; what would weaken the restricted profile is refused.
 */
import { describe, expect, it } from 'vitest';
import { loadClusters } from '../../src/clusters';
import { clusterDir, problemsOf, validClusterFile } from '../helpers/cluster-files';

const file = validClusterFile({ name: 'prod' });
const prunePod = (pod: object) => problemsOf({ ...file, prune: { ...file.prune, pod } });
const veridorPod = (pod: object) => problemsOf({ ...file, veridor: { ...file.veridor, pod } });

/** The warnings of loading `clusters/prod.yaml` with `veridor.pod: pod`. */
function warningsFor(pod: object): string[] {
  const dir = clusterDir({ 'prod.yaml': { ...file, veridor: { ...file.veridor, pod } } });
  const told: string[] = [];
  loadClusters({ dir, cluster: 'prod', warn: (message) => told.push(message) });
  return told.map((message) => message.replace(`${dir}/`, 'clusters/'));
}

describe('tolerations, as ValidateTolerations', () => {
  it('accepts an empty key, operator and effect as Kubernetes does (empty is none)', () => {
    expect(prunePod({ tolerations: [{ key: '', operator: 'Exists', effect: '' }] })).toEqual([]);
    expect(prunePod({ tolerations: [{ key: 'dedicated', operator: '', value: 'ci', effect: 'NoSchedule' }] })).toEqual(
      [],
    );
  });

  it('refuses an effect typo, naming the effect meant', () => {
    expect(prunePod({ tolerations: [{ key: 'dedicated', effect: 'NoSchedul' }] })).toEqual([
      'clusters/prod.yaml: prune.pod.tolerations[0].effect: "NoSchedul" is not a taint effect (the API server ' +
        'refuses it): did you mean NoSchedule? use NoSchedule, PreferNoSchedule, NoExecute, or leave it out for ' +
        'every effect',
    ]);
  });

  it('refuses an empty key without Exists, a value with Exists, tolerationSeconds without NoExecute', () => {
    expect(prunePod({ tolerations: [{ effect: 'NoSchedule' }] })).toEqual([
      'clusters/prod.yaml: prune.pod.tolerations[0].operator: must be Exists when key is empty (a toleration of ' +
        'every taint); set key, or operator: Exists',
    ]);
    expect(prunePod({ tolerations: [{ key: 'a', operator: 'Exists', value: 'b' }] })).toEqual([
      'clusters/prod.yaml: prune.pod.tolerations[0].value: must be empty when operator is Exists; remove it',
    ]);
    expect(prunePod({ tolerations: [{ key: 'a', effect: 'NoSchedule', tolerationSeconds: 5 }] })).toEqual([
      'clusters/prod.yaml: prune.pod.tolerations[0].tolerationSeconds: is only for effect: NoExecute (the API ' +
        'server refuses it otherwise); set effect: NoExecute or remove it',
    ]);
    expect(prunePod({ tolerations: [{ key: 'a', operator: 'Lt', value: '5' }] })).toEqual([
      'clusters/prod.yaml: prune.pod.tolerations[0].operator: "Lt" is not a toleration operator the API server ' +
        'takes by default: use Equal or Exists (Lt needs the alpha feature gate TaintTolerationComparisonOperators)',
    ]);
  });

  it('warns on a toleration of every taint and on negative tolerationSeconds', () => {
    expect(
      warningsFor({ tolerations: [{ operator: 'Exists' }, { key: 'a', effect: 'NoExecute', tolerationSeconds: -1 }] }),
    ).toEqual([
      'clusters/prod.yaml: veridor.pod.tolerations[0]: tolerates every taint (no key, no effect), a drained or ' +
        "unreachable node's included: name the taint key the node pool carries",
      'clusters/prod.yaml: veridor.pod.tolerations[1].tolerationSeconds: -1 is read as 0: the pod is evicted at ' +
        'once from a node tainted NoExecute; give the seconds it may stay, or leave it out to stay for good',
    ]);
  });
});

describe('names, as the API server checks them', () => {
  it('refuses a label key or value, a node selector, a PriorityClass name it refuses', () => {
    expect(prunePod({ labels: { 'Example.com/team': 'a' } })).toEqual([
      'clusters/prod.yaml: prune.pod.labels["Example.com/team"]: must be a label key: [prefix/]name, the name at ' +
        'most 63 letters, digits, "-", "_" and "."',
    ]);
    expect(prunePod({ labels: { team: 'not valid!' } })[0]).toMatch(/prune\.pod\.labels\.team: must be a label value/);
    expect(prunePod({ nodeSelector: { 'kubernetes.io/os': 'not valid!' } })[0]).toMatch(/must be a label value/);
    expect(prunePod({ nodeSelector: { '-os': 'linux' } })[0]).toMatch(/nodeSelector\["-os"\]: must be a label key/);
    expect(prunePod({ priorityClassName: 'Platform_Low' })).toEqual([
      'clusters/prod.yaml: prune.pod.priorityClassName: must be a PriorityClass name (lowercase letters, digits, ' +
        '"-" and ".", at most 253 characters)',
    ]);
  });

  it('loads a pull Secret name no Secret can have (the API server takes it) with a warning', () => {
    expect(veridorPod({ imagePullSecrets: ['Private'] })).toEqual([]);
    expect(warningsFor({ imagePullSecrets: ['registry', 'Private'] })).toEqual([
      'clusters/prod.yaml: veridor.pod.imagePullSecrets[1]: "Private" is no Secret\'s name (Secret names are ' +
        'lowercase DNS subdomains): the kubelet pulls without it; give the name of the registry Secret',
    ]);
  });

  it("warns on a PriorityClass of the cluster's own components", () => {
    expect(warningsFor({ priorityClassName: 'system-cluster-critical' })).toEqual([
      "clusters/prod.yaml: veridor.pod.priorityClassName: system-cluster-critical is for the cluster's own " +
        "components: the pod may preempt the teams' workloads, and a cluster may cap it with a ResourceQuota; use a " +
        'class of your own',
    ]);
  });

  it('refuses an affinity that is not core/v1, naming the field', () => {
    expect(
      prunePod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: 'x' } } })[0],
    ).toMatch(
      /prune\.pod\.affinity: is not a Kubernetes affinity: .*requiredDuringSchedulingIgnoredDuringExecution must be object/,
    );
    expect(prunePod({ affinity: { nodeAfinity: {} } })[0]).toMatch(/prune\.pod\.affinity\.nodeAfinity: unknown key/);
  });

  it('refuses an affinity field the render would leave out (a typo, a field newer than its classes)', () => {
    const term = { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }] }] };
    const typo = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecutoin: term } };
    expect(prunePod({ affinity: typo })).toEqual([
      'clusters/prod.yaml: prune.pod.affinity.nodeAffinity["requiredDuringSchedulingIgnoredDuringExecutoin"]: ' +
        'is not a field of a pod affinity as glidepath renders it (Kubernetes 1.28, the Argo Rollouts CRD): it ' +
        'would be left out of the pod; did you mean requiredDuringSchedulingIgnoredDuringExecution?',
    ]);
    const podTerm = { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { a: 'b' } } };
    expect(
      prunePod({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [podTerm] } } }),
    ).toEqual([]);
    expect(
      prunePod({
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [{ ...podTerm, matchLabelKeys: ['pod-template-hash'] }],
          },
        },
      }),
    ).toEqual([expect.stringMatching(/Execution"\]\[0\]\.matchLabelKeys: is not a field .* left out of the pod$/)]);
  });
});

describe('annotations', () => {
  it('takes a key with capitals, as the API server (it lowercases the key first)', () => {
    expect(veridorPod({ annotations: { 'Example.com/Owner': 'platform' } })).toEqual([]);
  });

  it('takes a switch under a key named like a secret, and refuses a value there', () => {
    expect(veridorPod({ annotations: { 'vault.hashicorp.com/agent-inject-token': 'true' } })).toEqual([]);
    expect(veridorPod({ annotations: { 'example.com/api-token': 'abc123' } })).toEqual([
      expect.stringMatching(
        /annotations\["example\.com\/api-token"\]: a field named .* holds a value; a cluster file never/,
      ),
    ]);
  });

  it('refuses an annotation that weakens the restricted profile', () => {
    expect(
      veridorPod({ annotations: { 'container.apparmor.security.beta.kubernetes.io/veridor': 'unconfined' } }),
    ).toEqual([
      'clusters/prod.yaml: veridor.pod.annotations["container.apparmor.security.beta.kubernetes.io/veridor"]: ' +
        'is unconfined: Pod Security (baseline and restricted) refuses a pod without AppArmor',
    ]);
    expect(veridorPod({ annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } })).toEqual([
      'clusters/prod.yaml: veridor.pod.annotations["seccomp.security.alpha.kubernetes.io/pod"]: is "unconfined", ' +
        "and glidepath's pods set seccompProfile RuntimeDefault: the API server refuses a seccomp annotation that " +
        'disagrees with the field (and an unconfined pod breaks the restricted profile)',
    ]);
  });

  it('takes what Kubernetes takes: a localhost AppArmor profile, a runtime/default seccomp annotation (warned)', () => {
    const annotations = {
      'container.apparmor.security.beta.kubernetes.io/veridor': 'localhost/k8s-veridor',
      'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default',
    };
    expect(veridorPod({ annotations })).toEqual([]);
    expect(warningsFor({ annotations })).toEqual([
      'clusters/prod.yaml: veridor.pod.annotations["seccomp.security.alpha.kubernetes.io/pod"]: has no effect ' +
        "since Kubernetes 1.27 (the kubelet reads the seccompProfile field, RuntimeDefault on glidepath's pods): " +
        'remove it',
    ]);
  });

  it('refuses the pod annotations the API server refuses', () => {
    expect(
      veridorPod({ annotations: { 'container.apparmor.security.beta.kubernetes.io/veridor': 'default' } }),
    ).toEqual([expect.stringMatching(/is not an AppArmor profile: the API server takes runtime\/default/)]);
    expect(
      veridorPod({ annotations: { 'container.seccomp.security.alpha.kubernetes.io/x': 'localhost/../p' } }),
    ).toEqual([expect.stringMatching(/must not contain '\.\.' after localhost\//)]);
    expect(veridorPod({ annotations: { 'controller.kubernetes.io/pod-deletion-cost': '+10' } })).toEqual([
      expect.stringMatching(/pod-deletion-cost"\]: must be a 32-bit integer/),
    ]);
    expect(veridorPod({ annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-2147483648' } })).toEqual([]);
    expect(veridorPod({ annotations: { 'kubernetes.io/config.mirror': 'x' } })).toEqual([
      expect.stringMatching(/config\.mirror"\]: marks a static pod of the kubelet/),
    ]);
    expect(veridorPod({ annotations: { 'a/b/c': 'x' } })).toEqual([
      expect.stringMatching(/annotations\["a\/b\/c"\]: must be a label key/),
    ]);
    expect(veridorPod({ annotations: { 'example.com/big': 'x'.repeat(256 * 1024) } })).toEqual([
      expect.stringMatching(/veridor\.pod\.annotations: are 262159 bytes; the API server refuses a pod's annotations/),
    ]);
  });
});
