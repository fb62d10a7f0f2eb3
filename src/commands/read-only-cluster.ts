/**
 * The input of a read-only command (verify, facts, check-live): its bad input is reported without "nothing was
 * written".
 */
import { ConfigError, ReadOnlyInputError } from '../config/errors';
import { type LoadedCluster } from '../config/validate-cluster-text';
import { loadClusters } from '../clusters';
import type { CommandContext } from './command';
import { loadOptions } from './options';

/** As every command loads: no cluster file may hold a secret of the environment, and warnings are told. */
export function loadReadOnlyCluster(
  dir: string,
  cluster: string,
  context: Pick<CommandContext, 'env' | 'warn' | 'validate'>,
): LoadedCluster {
  return readOnlyInput(() => loadClusters(loadOptions({ clusters: dir, cluster }, context))[0]!);
}

/** What `load` returns; its bad input is reported without "nothing was written" (the command writes nothing). */
export function readOnlyInput<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError && !(error instanceof ReadOnlyInputError))
      throw new ReadOnlyInputError(error.problems);
    throw error;
  }
}
