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

/** A copy of the admin kubeconfig whose context namespace is the controller's own (where it reads its ConfigMap). */
export function kubeconfigIn(plane: ControlPlane, tmp: string, name: string, namespace: string): string {
  const file = join(tmp, `${name}.kubeconfig`);
  writeFileSync(
    file,
    readFileSync(plane.adminKubeconfig, 'utf8').replace(/namespace: default/, `namespace: ${namespace}`),
    { mode: 0o600 },
  );
  return file;
}

export async function startControllers(
  bin: Binaries,
  plane: ControlPlane,
  cluster: E2eCluster,
  tmp: string,
): Promise<Controllers> {
  const logs = join(tmp, 'logs');
  const rollouts = startProcess(
    'rollouts-controller',
    bin['rollouts-controller']!,
    [
      `--kubeconfig=${kubeconfigIn(plane, tmp, 'rollouts', cluster.rolloutsNamespace)}`,
      `--rollout-resync=${cluster.resyncSeconds}`,
      `--metricsPort=${await freePort()}`,
      `--healthzPort=${await freePort()}`,
      '--leader-elect=false',
      '--loglevel=info',
      '--logformat=text',
    ],
    join(logs, 'rollouts-controller.log'),
  );
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
          join(logs, 'argocd-notifications.log'),
        );
  const started = [...plane.processes, rollouts, ...(argocd ? [argocd] : [])];
  await waitFor(
    'the Rollouts controller to start its workers',
    60_000,
    async () => (/Started controller/.test(readFileSync(rollouts.logFile, 'utf8')) ? true : undefined),
    started,
  );
  if (argocd)
    await waitFor(
      'the Argo CD notifications controller to start',
      60_000,
      async () => (/serving metrics on port/.test(readFileSync(argocd.logFile, 'utf8')) ? true : undefined),
      started,
    );
  return { rollouts, argocd };
}

/** Lines of a controller's log that match, for assertions and the report. */
export function logLines(entry: Started, pattern: RegExp): string[] {
  return readFileSync(entry.logFile, 'utf8')
    .split('\n')
    .filter((line) => pattern.test(line));
}
