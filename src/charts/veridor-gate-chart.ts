import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ClusterConfig } from '../config/schema';
import { VeridorGateTemplate } from '../constructs/veridor-gate-template';
import { COMMON_LABELS } from './labels';

export interface VeridorGateChartProps {
  readonly config: ClusterConfig;
  /** Target namespace; omit for the cluster-scoped template. */
  readonly namespace?: string;
}

/** One gitops unit of the Veridor gate: the template of one namespace, or the cluster-wide one. */
export class VeridorGateChart extends Chart {
  constructor(scope: Construct, id: string, props: VeridorGateChartProps) {
    super(scope, id, { labels: COMMON_LABELS, ...(props.namespace ? { namespace: props.namespace } : {}) });
    const { veridor } = props.config;
    new VeridorGateTemplate(this, 'VeridorGate', {
      ...(props.namespace ? { namespace: props.namespace } : {}),
      image: veridor.image,
      configMap: veridor.configMap,
      secret: veridor.secret,
      failOn: veridor.failOn,
      waitForTargetSeconds: veridor.waitForTargetSeconds,
      resources: veridor.resources,
      ...(veridor.pod !== undefined ? { placement: veridor.pod } : {}),
    });
  }
}

/** The Veridor gates of a cluster, each a chart: one per namespace, or one cluster-scoped template. */
export function veridorGateCharts(
  config: ClusterConfig,
): { readonly id: string; readonly props: VeridorGateChartProps }[] {
  if (config.veridor.clusterTemplate) return [{ id: 'veridor-gate-cluster', props: { config } }];
  return config.veridor.namespaces.map((namespace) => ({
    id: `veridor-gate-${namespace}`,
    props: { config, namespace },
  }));
}
