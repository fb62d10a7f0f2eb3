/** The shape of a run of text, as the secret detector judges it: how random, how mixed, whether it is words. */

/** A word, or a number: what a name of words joined by `-`, `_` or `=` is made of (`JIRA-1234-add-Rollout`). */
const WORD = /^(?:[A-Za-z]+|[0-9]+)$/;
/** A short part such a name may mix letters and digits in (`Q4`, `v2`, `eu1`). */
const SHORT_PART = /^[A-Za-z0-9]{1,3}$/;

/**
 * A branch name, a label or a title of words joined by `-`, `_` or `=`: three parts at least, each a word or a short
 * part, most of them words. The parts of a random token mix letters and digits.
 */
export function isJoinedWords(run: string): boolean {
  const parts = run.split(/[-_=]+/).filter((part) => part !== '');
  const words = parts.filter((part) => WORD.test(part)).length;
  return (
    parts.length >= 3 && words * 2 > parts.length && parts.every((part) => WORD.test(part) || SHORT_PART.test(part))
  );
}

/** How many of lower case, upper case and digits the text mixes. */
export function characterClasses(text: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(text)).length;
}

/** Bits per character. */
export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
