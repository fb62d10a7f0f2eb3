/**
 * What glidepath makes of a team's extraData on a cluster that declares `release`: refused at load (what synth
 * and every command would say), failed by verify, or accepted (with the warnings verify prints).
 */
import { type ClusterFile } from '../../src/config/schema';
import { clusterConfigSchema } from '../../src/clusters';
import type { Engine } from '../../src/notifications/engine-releases';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../../src/notifications/engine-facts';
import { checkTeamNotifications } from '../../src/verify/extra-data';
import type { Manifest } from '../../src/verify/types';

export interface GlidepathVerdict {
  readonly ok: boolean;
  /** The load issues or verify violations that refuse it. */
  readonly reasons: readonly string[];
  readonly warnings: readonly string[];
}

const BASE: ClusterFile = {
  name: 'judge',
  kubernetesVersion: '1.28',
  relay: { ip: '10.0.0.7', port: 30880 },
  tracked: { namespaces: ['shop'] },
  argocd: { namespace: 'argocd-apps' },
  veridor: { image: 'registry.test/veridor:1.0.0' },
  gitops: { repo: 'https://github.com/example/gitops.git' },
};

export function glidepathVerdict(
  engine: Engine,
  data: Readonly<Record<string, string>>,
  release: string,
): GlidepathVerdict {
  const file: ClusterFile =
    engine === 'argo-rollouts'
      ? { ...BASE, rollouts: { controllerVersion: release, extraData: { ...data } } }
      : { ...BASE, argocd: { namespace: 'argocd-apps', version: release, extraData: { ...data } } };
  const parsed = clusterConfigSchema.safeParse(file);
  if (!parsed.success) {
    return {
      ok: false,
      reasons: parsed.error.issues.map((issue) => `load: ${issue.path.join('.')}: ${issue.message}`),
      warnings: [],
    };
  }
  const name = engine === 'argo-rollouts' ? ROLLOUTS_NOTIFICATION_CONFIGMAP : ARGOCD_NOTIFICATIONS_CONFIGMAP;
  const manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'judge' }, data: { ...data } };
  const report = checkTeamNotifications([{ file: `${name}.k8s.yaml`, manifest: manifest as Manifest }], {
    config: parsed.data,
  });
  return {
    ok: report.violations.length === 0,
    reasons: report.violations.map((v) => `verify ${v.rule}: ${v.message}`),
    warnings: (report.warnings ?? []).map((v) => `${v.rule}: ${v.message}`),
  };
}
