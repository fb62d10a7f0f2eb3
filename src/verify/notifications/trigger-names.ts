/** Argo Rollouts turns Kubernetes events into `on-<reason>` triggers on a second path that ignores oncePer. */
import { BOTH_ENGINES, type NotificationRule } from './rule';

export const triggerNames: NotificationRule = {
  name: 'trigger-names',
  engines: BOTH_ENGINES,
  reads: 'loaded',
  check: ({ loaded }) =>
    [...loaded.triggers.keys()]
      .filter((name) => name.startsWith('on-'))
      .map((name) => ({
        message:
          `trigger.${name} starts with "on-", the prefix of the triggers Argo Rollouts makes from Kubernetes ` +
          `events (a second path that ignores oncePer)`,
        fix: `rename it without the prefix, e.g. glidepath-${name.slice(3)}`,
      })),
};
