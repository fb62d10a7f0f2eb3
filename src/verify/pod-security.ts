/**
 * Pod Security: every pod template in any object (CronJob, the analysis Job inside an AnalysisTemplate,
 * a Deployment, a bare Pod, anything with `containers`) meets the Kubernetes "restricted" profile, control by
 * control as the Pod Security Standards page lists them for Kubernetes 1.28 (restricted includes baseline).
 */
import { objectRef, Tally, type FamilyReport, type RenderedObject } from './types';
import { BASELINE_CONTROLS } from './pod-security-baseline';
import { RESTRICTED_CONTROLS } from './pod-security-restricted';
import { containersOf, findPodTemplates, type Record_ } from './pod-templates';

/** Each control: the rule id and a check of one pod template (restricted includes baseline). */
const CONTROLS = [...BASELINE_CONTROLS, ...RESTRICTED_CONTROLS];

/** The rule ids, in the order of the Pod Security Standards page. */
export const POD_SECURITY_RULES: readonly string[] = CONTROLS.map(([rule]) => rule);

export function checkPodSecurity(objects: readonly RenderedObject[]): FamilyReport {
  const tally = new Tally('pod-security');
  for (const { manifest } of objects) {
    const ref = objectRef(manifest);
    for (const pod of findPodTemplates(manifest as Record_)) {
      const containers = containersOf(pod.spec, pod.path);
      for (const [rule, control] of CONTROLS) tally.checkEach(ref, rule, () => control(pod, containers));
    }
  }
  return tally.report();
}
