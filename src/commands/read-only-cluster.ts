/**
 * The one cluster a read-only command (facts, check-live) works on; its bad input is reported without "nothing was
 * written".
 */
import { ConfigError, ReadOnlyInputError } from '../config/errors';
import { type LoadedCluster } from '../config/loader';
import { loadClusters } from '../clusters';

export function loadReadOnlyCluster(dir: string, cluster: string): LoadedCluster {
  try {
    return loadClusters({ dir, cluster })[0]!;
  } catch (error) {
    if (error instanceof ConfigError && !(error instanceof ReadOnlyInputError))
      throw new ReadOnlyInputError(error.problems);
    throw error;
  }
}
