/**
 * The compiled Rollouts validators (`generated/`) that src/verify imports: npm's `prepare` writes them, and this
 * does when an install skipped scripts (`npm ci --ignore-scripts`).
 */
// @ts-expect-error: a plain ES module without types
import { ensureValidators } from '../../scripts/build-validators.mjs';
// @ts-expect-error: a plain ES module without types
import { ensurePruneProgram } from '../../scripts/build-prune-program.mjs';

export default async function setup(): Promise<void> {
  await (ensureValidators as () => Promise<void>)();
  await (ensurePruneProgram as () => Promise<void>)();
}
