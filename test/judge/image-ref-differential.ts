/** The project's image reference reading against the kubelet's (docker/distribution/reference v2.8.2). */
import { readImageRef } from '../../src/config/image-ref';
import { askGoJudge } from './go-judge';
import { imageRefInputs } from './image-ref-inputs';
import type { Disagreement } from './disagreement';

interface RefVerdict {
  readonly valid: boolean;
  readonly error?: string;
  readonly name?: string;
  readonly tag?: string;
  readonly digest?: string;
}

export function imageRefDisagreements(
  count: number,
  seed?: number,
): { checked: number; disagreements: Disagreement[] } {
  const refs = imageRefInputs(count, seed);
  const goVerdicts = askGoJudge<RefVerdict>(
    'refjudge',
    refs.map((ref) => ({ ref })),
  );
  const disagreements: Disagreement[] = [];
  refs.forEach((ref, i) => {
    const ours = projectVerdict(ref);
    const theirs = goVerdicts[i]!;
    const same = ours.valid
      ? theirs.valid && ours.name === theirs.name && ours.tag === theirs.tag && ours.digest === theirs.digest
      : !theirs.valid;
    if (!same) disagreements.push({ input: JSON.stringify(ref), ours, theirs });
  });
  return { checked: refs.length, disagreements };
}

function projectVerdict(text: string): RefVerdict {
  const read = readImageRef(text);
  if ('problem' in read) return { valid: false, error: read.problem };
  const { normalizedName, tag, digest } = read.ref;
  return {
    valid: true,
    name: normalizedName,
    ...(tag === undefined ? {} : { tag }),
    ...(digest === undefined ? {} : { digest }),
  };
}
