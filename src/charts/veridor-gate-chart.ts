import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ClusterConfig } from '../config/schema';
import { VeridorGateTemplate } from '../constructs/veridor-gate-template';
import { COMMON_LABELS } from './labels';

export interface VeridorGateChartProps {
  readonly veridor: ClusterConfig['veridor'];
  /** Target namespace; omit for the cluster-scoped template. */
  readonly namespace?: string;
}

/** One gitops unit of the Veridor gate: the template of one namespace, or the cluster-wide one. */
export class VeridorGateChart extends Chart {
  constructor(scope: Construct, id: string, props: VeridorGateChartProps) {
    super(scope, id, { labels: COMMON_LABELS, ...(props.namespace ? { namespace: props.namespace } : {}) });
    const { veridor } = props;
    new VeridorGateTemplate(this, 'VeridorGate', {
      ...(props.namespace ? { namespace: props.namespace } : {}),
      image: veridor.image,
      configMap: veridor.configMap,
      secret: veridor.secret,
      failOn: veridor.failOn,
      waitForTargetSeconds: veridor.waitForTargetSeconds,
      resources: veridor.resources,
    });
  }
}

/** The Veridor charts of a cluster: one per namespace, or one cluster-scoped template. */
export function addVeridorGateCharts(scope: Construct, config: ClusterConfig): void {
  if (config.veridor.clusterTemplate) {
    new VeridorGateChart(scope, 'veridor-gate-cluster', { veridor: config.veridor });
    return;
  }
  for (const namespace of config.veridor.namespaces) {
    new VeridorGateChart(scope, `veridor-gate-${namespace}`, { veridor: config.veridor, namespace });
  }
}
