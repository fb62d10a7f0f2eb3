/** The project's reading of an RFC 3339 time against Go's time.Parse(time.RFC3339, ...). */
import { parseRfc3339 } from '../../src/notifications/model/rfc3339';
import { askGoJudge } from './go-judge';
import { rfc3339Inputs } from './rfc3339-inputs';
import type { Disagreement } from './disagreement';

interface TimeVerdict {
  readonly valid: boolean;
  readonly unixMilli?: number;
}

export function rfc3339Disagreements(count: number, seed?: number): { checked: number; disagreements: Disagreement[] } {
  const texts = rfc3339Inputs(count, seed);
  const verdicts = askGoJudge<TimeVerdict>(
    'timejudge',
    texts.map((text) => ({ text })),
  );
  const disagreements: Disagreement[] = [];
  texts.forEach((text, i) => {
    const millis = parseRfc3339(text);
    const ours: TimeVerdict = millis === undefined ? { valid: false } : { valid: true, unixMilli: millis };
    const theirs = verdicts[i]!;
    if (ours.valid !== theirs.valid || (ours.valid && ours.unixMilli !== (theirs.unixMilli ?? 0)))
      disagreements.push({ input: JSON.stringify(text), ours, theirs });
  });
  return { checked: texts.length, disagreements };
}
