/** The Rollouts and Applications labelled as tracked: there, where the prune reaches, their annotations in budget. */
import { RELEASE_ID_ANNOTATION } from '../notifications/glidepath-fact';
import { NOTIFIED_ANNOTATION } from '../notifications/engine-facts';
import { clusterGrowthBudget } from '../prune/growth-budget';
import type { LiveCheckInput } from './check-input';
import { ok, problem, type Finding } from './findings';
import { countBy, items, meta, nameOf, TRACKED, unreadable } from './live-objects';
import { checkNotifiedAnnotation } from './notified-check';
import { unlimitedRetryFindings } from './unlimited-retries';
import { workloadRefFindings } from './workload-ref-rollouts';

export async function checkTrackedRollouts({ config, kubectl }: LiveCheckInput): Promise<Finding[]> {
  const subject = `Rollouts labelled ${TRACKED}`;
  const result = await kubectl.getJson('rollouts.argoproj.io', { selector: TRACKED });
  const blocked = unreadable(
    subject,
    result,
    'install Argo Rollouts, or grant your user list on rollouts.argoproj.io in all namespaces',
  );
  if (blocked) return [blocked];
  const rollouts = result.found ? items(result.value) : [];
  if (rollouts.length === 0)
    return [
      problem(
        subject,
        'none: no Rollout will send a fact',
        `label the tracked Rollouts: kubectl -n <namespace> label rollout <name> ${TRACKED}`,
      ),
    ];
  const byNamespace = countBy(rollouts.map((r) => meta(r).namespace ?? ''));
  const findings = [ok(subject, `${rollouts.length} (${[...byNamespace].map(([ns, n]) => `${ns}: ${n}`).join(', ')})`)];
  const outside = [...byNamespace.keys()].filter((ns) => !config.tracked.namespaces.includes(ns));
  if (outside.length > 0)
    findings.push(
      problem(
        subject,
        `some are in namespaces outside tracked.namespaces: ${outside.join(', ')}; they get facts but the ` +
          `prune never strips their annotation`,
        'add those namespaces to tracked.namespaces',
      ),
    );
  const noRelease = rollouts.filter((r) => meta(r).annotations?.[RELEASE_ID_ANNOTATION] === undefined).map(nameOf);
  if (noRelease.length > 0)
    findings.push(
      problem(
        subject,
        `without the annotation ${RELEASE_ID_ANNOTATION} (their facts carry releaseId null): ${noRelease.join(', ')}`,
        `annotate them: kubectl -n <namespace> annotate rollout <name> ${RELEASE_ID_ANNOTATION}=<release>`,
      ),
    );
  const budget = clusterGrowthBudget(config);
  const pruneFix =
    `the prune may not be running: kubectl -n ${config.prune.namespace} get cronjob glidepath-notified-prune, ` +
    'and the logs of its last Job';
  for (const rollout of rollouts) {
    const { namespace = '', name = '', annotations } = meta(rollout);
    findings.push(checkNotifiedAnnotation({ namespace, name }, annotations?.[NOTIFIED_ANNOTATION], budget, pruneFix));
  }
  findings.push(...workloadRefFindings(rollouts));
  return findings;
}

export async function checkTrackedApplications({ config, kubectl }: LiveCheckInput): Promise<Finding[]> {
  const subject = `Applications labelled ${TRACKED} in ${config.argocd.namespace}`;
  const result = await kubectl.getJson('applications.argoproj.io', {
    namespace: config.argocd.namespace,
    selector: TRACKED,
  });
  const blocked = unreadable(
    subject,
    result,
    'check argocd.namespace, or grant your user list on applications.argoproj.io there',
  );
  if (blocked) return [blocked];
  const applications = result.found ? items(result.value) : [];
  if (applications.length === 0)
    return [
      problem(
        subject,
        'none: no sync failure will send a fact',
        `label each tracked Application: kubectl -n ${config.argocd.namespace} label application <name> ${TRACKED}`,
      ),
    ];
  return [
    ok(subject, `${applications.length}: ${applications.map((a) => meta(a).name).join(', ')}`),
    ...unlimitedRetryFindings(applications, config),
  ];
}
