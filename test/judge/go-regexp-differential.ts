/** The project's port of Go's regexp syntax checks against regexp.Compile of each Go release it stands for. */
import { fileURLToPath } from 'node:url';
import { buildGoTool } from '../../tools/go-tool.mjs';
import {
  GO_REGEXP_RELEASES,
  goRegexpProblem,
  isJudgedPattern,
  type GoRegexpRelease,
} from '../../src/notifications/expr/go-regexp';
import { askGoProgram } from './go-judge';
import { goRegexpInputs } from './go-regexp-inputs';
import type { Disagreement } from './disagreement';

const REGEXP_JUDGE = fileURLToPath(new URL('../../tools/regexjudge', import.meta.url));

/** The Go release that builds the judge for each release the port stands for; go1.26 is the machine's Go. */
export const JUDGE_TOOLCHAINS: Readonly<Record<GoRegexpRelease, string | undefined>> = {
  'go1.21': 'go1.21.13',
  'go1.24': 'go1.24.9',
  'go1.26': undefined,
};

interface RegexpVerdict {
  readonly valid: boolean;
  readonly code?: string;
  readonly error?: string;
}

export function goRegexpDisagreements(
  count: number,
  seed?: number,
): { checked: number; disagreements: Disagreement[] } {
  const patterns = goRegexpInputs(count, seed).filter(isJudgedPattern);
  const disagreements: Disagreement[] = [];
  for (const release of GO_REGEXP_RELEASES) {
    const toolchain = JUDGE_TOOLCHAINS[release];
    const binary = buildGoTool(REGEXP_JUDGE, '.', toolchain === undefined ? {} : { toolchain });
    const verdicts = askGoProgram<RegexpVerdict>(
      binary,
      'regexjudge',
      patterns.map((pattern) => ({ pattern })),
    );
    patterns.forEach((pattern, i) => {
      const problem = goRegexpProblem(pattern, release);
      const ours: RegexpVerdict = problem === undefined ? { valid: true } : { valid: false, error: problem };
      const theirs = verdicts[i]!;
      // Go's size limit is not ported: below the judged length it only refuses what the repeat limit refuses too.
      const tooLarge = !ours.valid && theirs.code === 'expression too large';
      if (!tooLarge && (ours.valid !== theirs.valid || ours.error !== theirs.error))
        disagreements.push({ input: `${release} ${JSON.stringify(pattern)}`, ours, theirs: { ...theirs } });
    });
  }
  return { checked: patterns.length * GO_REGEXP_RELEASES.length, disagreements };
}
