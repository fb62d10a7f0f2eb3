/** Every notifications lint rule, in the order the report lists their violations. */
import { engineAccepts } from './engine-accepts';
import { engineRelease } from './engine-release';
import { generationGuard } from './generation-guard';
import { nilSafe } from './nil-safe';
import { references } from './references';
import type { NotificationRule } from './rule';
import { templateJson } from './template-json';
import { timeBucket } from './time-bucket';
import { triggerNames } from './trigger-names';
import { verbatim } from './verbatim';
import { webhookPostJson } from './webhook-post-json';

export const NOTIFICATION_RULES: readonly NotificationRule[] = [
  verbatim,
  engineAccepts,
  engineRelease,
  triggerNames,
  generationGuard,
  timeBucket,
  nilSafe,
  templateJson,
  references,
  webhookPostJson,
];
