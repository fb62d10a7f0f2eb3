/** One input on which the project and the real parser differ. */
export interface Disagreement {
  readonly input: string;
  readonly ours: object;
  readonly theirs: object;
}
