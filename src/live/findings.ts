/** One line of the check-live report: what was found, whether it is a problem, and the fix. */
export interface Finding {
  /** What was checked, e.g. `ConfigMap argo-rollouts/argo-rollouts-notification-configmap`. */
  readonly subject: string;
  readonly ok: boolean;
  readonly detail: string;
  /** How to fix a problem, or what to do about a warning. */
  readonly fix?: string;
  /** Allowed, and no problem, but glidepath promises less there: it is reported and does not block `ready`. */
  readonly warning?: boolean;
}

export const ok = (subject: string, detail: string): Finding => ({ subject, ok: true, detail });
export const warning = (subject: string, detail: string, advice: string): Finding => ({
  subject,
  ok: true,
  warning: true,
  detail,
  fix: advice,
});
export const problem = (subject: string, detail: string, fix: string): Finding => ({ subject, ok: false, detail, fix });
