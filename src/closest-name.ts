/** Did-you-mean for a mistyped name: a command, an option, a key of the cluster file. */
/** The candidate a mistyped name most likely meant, if any is close enough to be a typo. */
export function closestName(typed: string, candidates: readonly string[]): string | undefined {
  if (typed === '') return undefined; // every name starts with it, and a short one is two edits away
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) return undefined;
  const tolerance = Math.max(2, Math.floor(best.name.length / 3));
  return best.distance <= tolerance || best.name.startsWith(typed) ? best.name : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit (`clsuter` -> `cluster`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
