/** The project's CronJob schedule reading against robfig/cron v3.0.1 with Kubernetes 1.28's TZ rule. */
import { CronError, parseCron } from '../../src/config/cron';
import { cronRunGaps, nextCronRun } from '../../src/config/cron-gaps';
import { cronInputs, RUN_STARTS } from './cron-inputs';
import { askGoJudge } from './go-judge';
import type { Disagreement } from './disagreement';

const RUNS = 5;
/**
 * From here robfig/cron's five-year search covers a 29 February (2028), so "Next finds no run" means "never runs":
 * the never-runs check of the cluster file must say the same.
 */
const NEVER_RUNS_FROM = '2026-01-01T00:00:00Z';

interface CronVerdict {
  readonly valid: boolean;
  readonly error?: string;
  readonly runs?: (string | null)[];
}

export function cronDisagreements(count: number, seed?: number): { checked: number; disagreements: Disagreement[] } {
  const schedules = cronInputs(count, seed);
  const requests = schedules.map((schedule, i) => ({ schedule, from: RUN_STARTS[i % RUN_STARTS.length]!, runs: RUNS }));
  const goVerdicts = askGoJudge<CronVerdict>('cronjudge', requests);
  const firstRuns = askGoJudge<CronVerdict>(
    'cronjudge',
    schedules.map((schedule) => ({ schedule, from: NEVER_RUNS_FROM, runs: 1 })),
  );
  const disagreements: Disagreement[] = [];
  let neverRunsChecks = 0;
  requests.forEach((request, i) => {
    const ours = projectVerdict(request.schedule, new Date(request.from));
    const theirs = goVerdicts[i]!;
    const same =
      ours.valid === theirs.valid && (!ours.valid || JSON.stringify(ours.runs) === JSON.stringify(theirs.runs));
    if (!same) disagreements.push({ input: `${JSON.stringify(request.schedule)} from ${request.from}`, ours, theirs });
    if (!ours.valid || !theirs.valid) return;
    neverRunsChecks += 1;
    const neverRuns = cronRunGaps(parseCron(request.schedule)) === undefined;
    const goNeverRuns = firstRuns[i]!.runs?.[0] === null;
    if (neverRuns !== goNeverRuns) {
      disagreements.push({
        input: `never runs? ${JSON.stringify(request.schedule)}`,
        ours: { neverRuns },
        theirs: { firstRunFrom2026: firstRuns[i]!.runs },
      });
    }
  });
  return { checked: requests.length + neverRunsChecks, disagreements };
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
  for (let at: Date | undefined = from; runs.length < RUNS;) {
    at = nextCronRun(parsed, at);
    if (at === undefined) {
      runs.push(null);
      break;
    }
    runs.push(at.toISOString().replace('.000Z', 'Z'));
  }
  return { valid: true, runs };
}
