/** A key the engine cannot parse makes it refuse the whole ConfigMap: no notification at all. */
import { BOTH_ENGINES, type NotificationRule } from './rule';

export const engineAccepts: NotificationRule = {
  name: 'engine-accepts',
  engines: BOTH_ENGINES,
  reads: 'data',
  check: ({ loadProblems }) =>
    loadProblems.map((problem) => ({
      message: `the engine would reject the whole ConfigMap: ${problem}`,
      fix: 'build this key with the typed builders in src/notifications/',
    })),
};
