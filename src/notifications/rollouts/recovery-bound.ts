/**
 * How long a lost Rollout fact can take to reach the relay again: the one place this bound is computed, for
 * `synth --summary`, `synth --json`, the docs' tests and the e2e.
 *
 * The engine records the key of a send even when the relay never got it, and never redelivers. The same state goes
 * out again only under a new key: at the first reconcile in a later heartbeat bucket. A send lost at the start of a
 * bucket, with the next resync falling just before that bucket ends, finds its key there ("already sent, the same
 * state in the same time bucket"); only the resync after that sends. So the worst case is one resync plus one bucket
 * (strictly less, by the reconcile's own time): `resyncSeconds + heartbeatBucketSeconds`.
 */
export interface RecoveryBound {
  /** The controller's `--rollout-resync` period. */
  readonly resyncSeconds: number;
  /** Width of the heartbeat's time bucket. */
  readonly heartbeatBucketSeconds: number;
  /** The longest a lost fact's state can wait for a send that arrives: one resync plus one bucket. */
  readonly worstSeconds: number;
}

/** From the cluster file's `rollouts` section (or the schema's defaults). */
export function recoveryBound(rollouts: {
  readonly resyncSeconds: number;
  readonly heartbeatBucketSeconds: number;
}): RecoveryBound {
  return {
    resyncSeconds: rollouts.resyncSeconds,
    heartbeatBucketSeconds: rollouts.heartbeatBucketSeconds,
    worstSeconds: rollouts.resyncSeconds + rollouts.heartbeatBucketSeconds,
  };
}

/** `960 s (16 min)`, `1500 s (25 min)`, `90 s (1.5 min)`: the exact figure first, never a rounder one. */
export function secondsText(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Number((seconds / 60).toFixed(2));
  return `${seconds} s (${minutes} min)`;
}

/** The line `synth --summary` prints. */
export function recoveryBoundLine(cluster: string, bound: RecoveryBound): string {
  return (
    `${cluster}: a lost Rollout fact's state reaches the relay again within ${secondsText(bound.worstSeconds)}: ` +
    `one resync (${bound.resyncSeconds} s) plus one heartbeat bucket (${bound.heartbeatBucketSeconds} s)`
  );
}
