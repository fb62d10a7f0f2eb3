/** One line of the check-live report: what was found, whether it is a problem, and the fix. */
export interface Finding {
  /** What was checked, e.g. `ConfigMap argo-rollouts/argo-rollouts-notification-configmap`. */
  readonly subject: string;
  readonly ok: boolean;
  readonly detail: string;
  /** How to fix a problem. */
  readonly fix?: string;
}

export const ok = (subject: string, detail: string): Finding => ({ subject, ok: true, detail });
export const problem = (subject: string, detail: string, fix: string): Finding => ({ subject, ok: false, detail, fix });
