/**
 * `npm run judge`: the project's validators against the real Go parsers on generated inputs (fixed seeds).
 * Needs Go (and the module proxy, or a filled module cache, on the first run). Exits 1 on any disagreement.
 * To explore beyond CI's inputs: JUDGE_SEED=N (another sample), JUDGE_SCHEDULES=N, JUDGE_REFS=N, JUDGE_YAML_STRINGS=N,
 * JUDGE_URLS=N, JUDGE_PATTERNS=N, JUDGE_TIMES=N.
 */
import { GoToolError } from '../../tools/go-tool.mjs';
import { cronDisagreements } from './cron-differential';
import type { Disagreement } from './disagreement';
import { goRegexpDisagreements, JUDGE_TOOLCHAINS } from './go-regexp-differential';
import { imageRefDisagreements } from './image-ref-differential';
import { rfc3339Disagreements } from './rfc3339-differential';
import { serviceUrlDisagreements } from './service-url-differential';
import { yamlReadbackDisagreements } from './yaml-readback-differential';

const CRON_SCHEDULES = Number(process.env.JUDGE_SCHEDULES ?? 2_400);
const IMAGE_REFS = Number(process.env.JUDGE_REFS ?? 800);
const YAML_STRINGS = Number(process.env.JUDGE_YAML_STRINGS ?? 400);
const SERVICE_URLS = Number(process.env.JUDGE_URLS ?? 3_000);
const PATTERNS = Number(process.env.JUDGE_PATTERNS ?? 4_000);
const TIMES = Number(process.env.JUDGE_TIMES ?? 3_000);
const SEED = process.env.JUDGE_SEED === undefined ? undefined : Number(process.env.JUDGE_SEED);

function main(): number {
  let passed = 0;
  let failed = 0;
  const suites: [string, () => { checked: number; disagreements: Disagreement[] }][] = [
    [
      'cron schedules (validity and run times, then never-runs) vs robfig/cron v3.0.1 + Kubernetes 1.28',
      () => cronDisagreements(CRON_SCHEDULES, SEED),
    ],
    ['image references vs docker/distribution/reference v2.8.2', () => imageRefDisagreements(IMAGE_REFS, SEED)],
    [
      "Veridor base URLs (steps --base-url) vs Go's net/url and the ports net/http dials",
      () => serviceUrlDisagreements(SERVICE_URLS, SEED),
    ],
    [
      `constant patterns of matches vs Go's regexp.Compile of ${Object.values(JUDGE_TOOLCHAINS)
        .map((toolchain) => toolchain ?? "the machine's Go")
        .join(', ')}`,
      () => goRegexpDisagreements(PATTERNS, SEED),
    ],
    ['RFC 3339 times (finishedAt, facts --now) vs time.Parse(time.RFC3339)', () => rfc3339Disagreements(TIMES, SEED)],
    [
      'rendered files and ConfigMap values read back through sigs.k8s.io/yaml v1.6.0 (YAML 1.1)',
      () => {
        const { corpus, ...result } = yamlReadbackDisagreements(YAML_STRINGS, SEED);
        console.log(
          `yaml read-back corpus: ${corpus.clusters} shipped and fixture clusters, ${corpus.fixed} fixed and ` +
            `${corpus.generated} generated strings ` +
            `(${corpus.refusedAtLoad} refused by the loader, still checked through the writers)`,
        );
        return result;
      },
    ],
  ];
  for (const [title, run] of suites) {
    const { checked, disagreements } = run();
    for (const { input, ours, theirs } of disagreements) {
      console.log(`DISAGREE ${input}\n  project: ${JSON.stringify(ours)}\n  go:      ${JSON.stringify(theirs)}`);
    }
    console.log(`${title}: ${checked - disagreements.length} of ${checked} checks agree`);
    passed += checked - disagreements.length;
    failed += disagreements.length;
  }
  console.log(`judge: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof GoToolError)) throw error;
  console.error(error.message);
  console.log('judge: 0 passed, 0 failed (the Go judges could not be built)');
  process.exitCode = 2;
}
