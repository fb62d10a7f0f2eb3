/** The project's check of a Veridor base URL against Go's net/url (what Veridor parses and net/http fetches). */
import { isServiceUrl } from '../../src/veridor/service-url';
import { askGoJudge } from './go-judge';
import { serviceUrlInputs } from './service-url-inputs';
import type { Disagreement } from './disagreement';

interface UrlVerdict {
  readonly valid: boolean;
  readonly error?: string;
}

export function serviceUrlDisagreements(
  count: number,
  seed?: number,
): { checked: number; disagreements: Disagreement[] } {
  const urls = serviceUrlInputs(count, seed);
  const goVerdicts = askGoJudge<UrlVerdict>(
    'urljudge',
    urls.map((url) => ({ url })),
  );
  const disagreements: Disagreement[] = [];
  urls.forEach((url, i) => {
    const ours = { valid: isServiceUrl(url) };
    const theirs = goVerdicts[i]!;
    if (ours.valid !== theirs.valid) disagreements.push({ input: JSON.stringify(url), ours, theirs });
  });
  return { checked: urls.length, disagreements };
}
