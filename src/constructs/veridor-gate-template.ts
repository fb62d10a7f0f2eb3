import { Construct } from 'constructs';
import {
  AnalysisTemplate,
  AnalysisTemplateSpecMetricsCount,
  AnalysisTemplateSpecMetricsFailureLimit,
  type AnalysisTemplateSpec,
} from '../../imports/analysistemplate-argoproj.io';
import {
  ClusterAnalysisTemplate,
  type ClusterAnalysisTemplateSpec,
} from '../../imports/clusteranalysistemplate-argoproj.io';
import type { ContainerResources } from '../config/container-resources';
import { VERIDOR_GATE_NAME } from '../veridor/gate-name';
import { restrictedContainerSecurityContext, restrictedPodSecurityContext } from './restricted-security';
import { podPlacementMetadata, podPlacementSpec } from './pod-placement';
import type { PodPlacement } from '../config/pod-placement-schema';

export { VERIDOR_GATE_NAME };

/** Where the pod reads veridor.json and writes its work files. */
const CONFIG_DIR = '/config';
const WORK_DIR = '/work';
/** The uid/gid of the restricted-profile pod Veridor's own chart renders. */
const VERIDOR_UID = 10001;

export interface VeridorGateTemplateProps {
  /** Namespace of the AnalysisTemplate; omit for a cluster-scoped ClusterAnalysisTemplate. */
  readonly namespace?: string;
  /** Gate image (default of the `image` arg). Required: Veridor's documented default does not exist. */
  readonly image: string;
  /** ConfigMap holding veridor.json (default of the `config-map` arg). */
  readonly configMap: string;
  /** Secret imported with envFrom (default of the `secret` arg). */
  readonly secret: string;
  /** Veridor's --fail-on (default of the `fail-on` arg). */
  readonly failOn: string;
  /** Seconds to wait for the canary Service to accept a connection; 0 turns it off. */
  readonly waitForTargetSeconds: number;
  /** Requests and limits of the analysis container. */
  readonly resources: ContainerResources;
  /** Where the pod is scheduled, and its extra labels and annotations (`veridor.pod`). */
  readonly placement?: PodPlacement;
}

/**
 * The Veridor canary gate: an AnalysisTemplate (or ClusterAnalysisTemplate) named `veridor-gate` with one
 * job-provider metric. Any non-zero exit of `veridor run` fails the Job, the measurement, and with
 * `failureLimit: 0` aborts the rollout (fail closed).
 */
export class VeridorGateTemplate extends Construct {
  constructor(scope: Construct, id: string, props: VeridorGateTemplateProps) {
    super(scope, id);
    const spec = veridorGateSpec(props);
    if (props.namespace === undefined) {
      // Both CRDs share one spec schema; only the names of the generated classes differ.
      new ClusterAnalysisTemplate(this, 'Resource', {
        metadata: { name: VERIDOR_GATE_NAME },
        spec: spec as unknown as ClusterAnalysisTemplateSpec,
      });
    } else {
      new AnalysisTemplate(this, 'Resource', {
        metadata: { name: VERIDOR_GATE_NAME, namespace: props.namespace },
        spec,
      });
    }
  }
}

export function veridorGateSpec(props: VeridorGateTemplateProps): AnalysisTemplateSpec {
  return {
    args: [
      { name: 'base-url' },
      { name: 'config-map', value: props.configMap },
      { name: 'secret', value: props.secret },
      { name: 'image', value: props.image },
      { name: 'fail-on', value: props.failOn },
      { name: 'wait-for-target', value: String(props.waitForTargetSeconds) },
    ],
    metrics: [
      {
        name: 'veridor',
        count: AnalysisTemplateSpecMetricsCount.fromNumber(1),
        failureLimit: AnalysisTemplateSpecMetricsFailureLimit.fromNumber(0),
        provider: {
          job: {
            spec: {
              backoffLimit: 0,
              activeDeadlineSeconds: 600,
              template: {
                ...podPlacementMetadata(props.placement),
                spec: {
                  ...podPlacementSpec(props.placement),
                  restartPolicy: 'Never',
                  automountServiceAccountToken: false,
                  securityContext: restrictedPodSecurityContext(VERIDOR_UID),
                  containers: [
                    {
                      name: 'veridor',
                      image: '{{args.image}}',
                      command: ['veridor'],
                      args: [
                        'run',
                        '--config',
                        `${CONFIG_DIR}/veridor.json`,
                        '--output-dir',
                        `${WORK_DIR}/.veridor`,
                        '--base-url',
                        '{{args.base-url}}',
                        '--fail-on',
                        '{{args.fail-on}}',
                        '--require-complete',
                        '--wait-for-target',
                        '{{args.wait-for-target}}',
                      ],
                      resources: { requests: { ...props.resources.requests }, limits: { ...props.resources.limits } },
                      envFrom: [{ secretRef: { name: '{{args.secret}}', optional: true } }],
                      securityContext: restrictedContainerSecurityContext(VERIDOR_UID),
                      volumeMounts: [
                        { name: 'config', mountPath: CONFIG_DIR, readOnly: true },
                        { name: 'work', mountPath: WORK_DIR },
                      ],
                    },
                  ],
                  volumes: [
                    { name: 'config', configMap: { name: '{{args.config-map}}' } },
                    { name: 'work', emptyDir: {} },
                  ],
                },
              },
            },
          },
        },
      },
    ],
  };
}
