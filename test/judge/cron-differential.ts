/** The project's CronJob schedule reading against robfig/cron v3.0.1 with Kubernetes 1.28's TZ rule. */
import { CronError, parseCron } from '../../src/config/cron';
import { nextCronRun } from '../../src/config/cron-gaps';
import { cronInputs, RUN_STARTS } from './cron-inputs';
import { askGoJudge } from './go-judge';
import type { Disagreement } from './disagreement';

const RUNS = 5;

interface CronVerdict {
  readonly valid: boolean;
  readonly error?: string;
  readonly runs?: (string | null)[];
}

export function cronDisagreements(count: number, seed?: number): { checked: number; disagreements: Disagreement[] } {
  const requests = cronInputs(count, seed).map((schedule, i) => ({ schedule, from: RUN_STARTS[i % RUN_STARTS.length]!, runs: RUNS }));
  const goVerdicts = askGoJudge<CronVerdict>('cronjudge', requests);
  const disagreements: Disagreement[] = [];
  requests.forEach((request, i) => {
    const ours = projectVerdict(request.schedule, new Date(request.from));
    const theirs = goVerdicts[i]!;
    const same = ours.valid === theirs.valid && (!ours.valid || JSON.stringify(ours.runs) === JSON.stringify(theirs.runs));
    if (!same) disagreements.push({ input: `${JSON.stringify(request.schedule)} from ${request.from}`, ours, theirs });
  });
  return { checked: requests.length, disagreements };
}

function projectVerdict(schedule: string, from: Date): CronVerdict {
  let parsed;
  try {
    parsed = parseCron(schedule);
  } catch (error) {
    if (error instanceof CronError) return { valid: false, error: error.message };
    throw error;
  }
  const runs: (string | null)[] = [];
  for (let at: Date | undefined = from; runs.length < RUNS; ) {
    at = nextCronRun(parsed, at);
    if (at === undefined) {
      runs.push(null);
      break;
    }
    runs.push(at.toISOString().replace('.000Z', 'Z'));
  }
  return { valid: true, runs };
}
