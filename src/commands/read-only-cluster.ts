/**
 * The one cluster a read-only command (facts, check-live) works on; its bad input is reported without "nothing was
 * written".
 */
import { ConfigError, ReadOnlyInputError } from '../config/errors';
import { type LoadedCluster } from '../config/loader';
import { loadClusters } from '../clusters';
import type { CommandContext } from './command';
import { loadOptions } from './options';

/** As every command loads: no cluster file may hold a secret of the environment, and warnings are told. */
export function loadReadOnlyCluster(
  dir: string,
  cluster: string,
  context: Pick<CommandContext, 'env' | 'warn'>,
): LoadedCluster {
  try {
    return loadClusters(loadOptions({ clusters: dir, cluster }, context))[0]!;
  } catch (error) {
    if (error instanceof ConfigError && !(error instanceof ReadOnlyInputError))
      throw new ReadOnlyInputError(error.problems);
    throw error;
  }
}
