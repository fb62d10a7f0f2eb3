import { Construct } from 'constructs';
import { k8s } from './k8s';

/**
 * Exactly what `kubectl annotate rollouts.argoproj.io -l ... KEY-` uses (the e2e audit log shows it): list to select,
 * patch to remove.
 */
export const PRUNE_RULES: readonly k8s.PolicyRule[] = [
  { apiGroups: ['argoproj.io'], resources: ['rollouts'], verbs: ['list', 'patch'] },
];

export interface PruneRbacProps {
  /** Name of every Role, RoleBinding, ClusterRole and ClusterRoleBinding. */
  readonly name: string;
  /** The ServiceAccount the rules are granted to. */
  readonly serviceAccount: { readonly name: string; readonly namespace: string };
  /** Namespaces whose Rollouts the Job prunes: one Role and RoleBinding in each. */
  readonly namespaces: readonly string[];
  /** Grant the rules cluster-wide (one ClusterRole and ClusterRoleBinding) instead of a Role per namespace. */
  readonly clusterScope: boolean;
}

/** Least-privilege access of the prune Job: list and patch on Rollouts, nothing else. */
export class PruneRbac extends Construct {
  constructor(scope: Construct, id: string, props: PruneRbacProps) {
    super(scope, id);
    const subjects: k8s.Subject[] = [
      { kind: 'ServiceAccount', name: props.serviceAccount.name, namespace: props.serviceAccount.namespace },
    ];
    const rules = PRUNE_RULES.map((rule) => ({ ...rule }));

    if (props.clusterScope) {
      new k8s.KubeClusterRole(this, 'ClusterRole', { metadata: { name: props.name }, rules });
      new k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
        metadata: { name: props.name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: props.name },
        subjects,
      });
      return;
    }
    for (const namespace of props.namespaces) {
      const inNamespace = new Construct(this, namespace);
      new k8s.KubeRole(inNamespace, 'Role', { metadata: { name: props.name, namespace }, rules });
      new k8s.KubeRoleBinding(inNamespace, 'RoleBinding', {
        metadata: { name: props.name, namespace },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: props.name },
        subjects,
      });
    }
  }
}
