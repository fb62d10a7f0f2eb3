import { Construct } from 'constructs';
import { NOTIFIED_PRUNE_PROGRAM } from '#notified-prune-program';
import { k8s } from './k8s';
import type { PruneProgramConfig } from '../prune/program/notified-prune';

/** The program's file in the ConfigMap and in the pod. */
export const PRUNE_PROGRAM_FILE = 'notified-prune.mjs';
/** What the program prunes and how, read by it at start. */
export const PRUNE_CONFIG_FILE = 'prune.json';

export interface PruneProgramConfigMapProps {
  readonly name: string;
  readonly namespace: string;
  readonly config: PruneProgramConfig;
}

/**
 * The prune program (bundled from src/prune/program/ by scripts/build-prune-program.mjs, Node built-ins only) and
 * its configuration, which the prune pod mounts read-only.
 */
export class PruneProgramConfigMap extends Construct {
  readonly name: string;

  constructor(scope: Construct, id: string, props: PruneProgramConfigMapProps) {
    super(scope, id);
    this.name = props.name;
    new k8s.KubeConfigMap(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      data: {
        [PRUNE_PROGRAM_FILE]: NOTIFIED_PRUNE_PROGRAM,
        [PRUNE_CONFIG_FILE]: `${JSON.stringify(props.config, null, 1)}\n`,
      },
    });
  }
}
