/**
 * A file's problems, at most MAX_PER_KIND of each kind, then one line saying how many more: 60,000 unquoted context
 * values gave 60,000 lines that all said the same.
 */
export const MAX_PER_KIND = 50;

export interface KindedProblem {
  readonly kind: string;
  readonly line: string;
}

/** The problems of `file` in their order, the first MAX_PER_KIND of each kind, then `and N more of the same kind`. */
export function capPerKind(file: string, problems: readonly KindedProblem[]): string[] {
  const counts = new Map<string, number>();
  const kept: string[] = [];
  for (const { kind, line } of problems) {
    const count = (counts.get(kind) ?? 0) + 1;
    counts.set(kind, count);
    if (count <= MAX_PER_KIND) kept.push(line);
  }
  for (const [kind, count] of counts) {
    if (count > MAX_PER_KIND)
      kept.push(
        `${file}: and ${count - MAX_PER_KIND} more of the same kind (${kind}); fix the ones above and run ` +
          `again to see the rest`,
      );
  }
  return kept;
}
