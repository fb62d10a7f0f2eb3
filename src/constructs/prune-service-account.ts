import { Construct } from 'constructs';
import { k8s } from './k8s';

export interface PruneServiceAccountProps {
  /** Name of the ServiceAccount the prune Job runs as. */
  readonly name: string;
  /** Namespace of the prune CronJob. */
  readonly namespace: string;
}

/**
 * The identity of the prune Job. Its token is not mounted by default: only the prune pod, which calls the API,
 * opts in (`automountServiceAccountToken: true` on its pod spec).
 */
export class PruneServiceAccount extends Construct {
  readonly name: string;
  readonly namespace: string;

  constructor(scope: Construct, id: string, props: PruneServiceAccountProps) {
    super(scope, id);
    this.name = props.name;
    this.namespace = props.namespace;
    new k8s.KubeServiceAccount(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      automountServiceAccountToken: false,
    });
  }
}
