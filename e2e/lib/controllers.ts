import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Binaries, ControlPlane } from './control-plane';
import type { E2eCluster } from './install';
import { freePort, startProcess, waitFor, type Started } from './processes';

export interface Controllers {
  readonly rollouts: Started;
  /** Missing when Argo CD did not build. */
  readonly argocd: Started | undefined;
}

/** A copy of the admin kubeconfig whose context namespace is `namespace`. */
export function kubeconfigIn(plane: ControlPlane, tmp: string, name: string, namespace: string): string {
  const file = join(tmp, `${name}.kubeconfig`);
  writeFileSync(
    file,
    readFileSync(plane.adminKubeconfig, 'utf8').replace(/namespace: default/, `namespace: ${namespace}`),
    { mode: 0o600 },
  );
  return file;
}

export interface RolloutsControllerOptions {
  /** The process's name in logs and the report. */
  readonly name: string;
  /** Where it reads its notifications ConfigMap and Secret. */
  readonly namespace: string;
  readonly resyncSeconds: number;
  /**
   * Only the Rollouts of `namespace` labelled `argo-rollouts.argoproj.io/controller-instance-id: <instanceId>`
   * (`--namespaced --instance-id`); a controller without one takes every Rollout that lacks the label.
   */
  readonly instanceId?: string;
}

/**
 * A Rollouts controller, once it has started its workers. It reads its notifications ConfigMap and Secret in
 * POD_NAMESPACE (argo-rollouts v1.9.1 `defaults.Namespace()`: that variable, else the in-cluster service account's
 * namespace, else `argo-rollouts`), not in its kubeconfig's namespace, which only `--namespaced` uses.
 */
export async function startRolloutsController(
  bin: Binaries,
  plane: ControlPlane,
  tmp: string,
  options: RolloutsControllerOptions,
  watch: readonly Started[] = plane.processes,
): Promise<Started> {
  const controller = startProcess(
    options.name,
    bin['rollouts-controller']!,
    [
      `--kubeconfig=${kubeconfigIn(plane, tmp, options.name, options.namespace)}`,
      `--rollout-resync=${options.resyncSeconds}`,
      `--metricsPort=${await freePort()}`,
      `--healthzPort=${await freePort()}`,
      '--leader-elect=false',
      ...(options.instanceId === undefined ? [] : ['--namespaced', `--instance-id=${options.instanceId}`]),
      '--loglevel=info',
      '--logformat=text',
    ],
    join(tmp, 'logs', `${options.name}.log`),
    { POD_NAMESPACE: options.namespace },
  );
  await waitFor(
    `the Rollouts controller ${options.name} to start its workers`,
    60_000,
    async () => (/Started controller/.test(readFileSync(controller.logFile, 'utf8')) ? true : undefined),
    [...watch, controller],
  );
  return controller;
}

export async function startControllers(
  bin: Binaries,
  plane: ControlPlane,
  cluster: E2eCluster,
  tmp: string,
): Promise<Controllers> {
  const argocdBin = bin['argocd-notifications'];
  const argocd =
    argocdBin === undefined
      ? undefined
      : startProcess(
          'argocd-notifications',
          argocdBin,
          [
            `--kubeconfig=${kubeconfigIn(plane, tmp, 'argocd', cluster.argocdNamespace)}`,
            `--metrics-port=${await freePort()}`,
            // Never contacted by these templates; a loopback port keeps the default DNS name out of the run.
            `--argocd-repo-server=127.0.0.1:${await freePort()}`,
            '--loglevel=debug',
            '--logformat=text',
          ],
          join(tmp, 'logs', 'argocd-notifications.log'),
        );
  const rollouts = await startRolloutsController(
    bin,
    plane,
    tmp,
    { name: 'rollouts-controller', namespace: cluster.rolloutsNamespace, resyncSeconds: cluster.resyncSeconds },
    [...plane.processes, ...(argocd ? [argocd] : [])],
  );
  if (argocd)
    await waitFor(
      'the Argo CD notifications controller to start',
      60_000,
      async () => (/serving metrics on port/.test(readFileSync(argocd.logFile, 'utf8')) ? true : undefined),
      [...plane.processes, rollouts, argocd],
    );
  return { rollouts, argocd };
}

/** Lines of a controller's log that match, for assertions and the report. */
export function logLines(entry: Started, pattern: RegExp): string[] {
  return readFileSync(entry.logFile, 'utf8')
    .split('\n')
    .filter((line) => pattern.test(line));
}
