/**
 * The cluster files as every command reads them: config's rules (src/config/), and each key of a team's extraData
 * read the way the notifications engine reads it (src/notifications/). config cannot know the engine, so it is
 * handed the engine's check here, the one place that imports both.
 */
import { loadClusterFile as loadWith, loadClusters as loadAllWith, type LoadOptions } from './config/loader';
import { validateClusterText as validateWith, type ClusterTextValidator } from './config/validate-cluster-text';
import type { KnownSecret } from './config/environment-secrets';
import { clusterSchemas } from './config/schema';
import { extraDataRefusals } from './notifications/configmap/key-problems';

export const { clusterFileSchema, clusterConfigSchema } = clusterSchemas(extraDataRefusals);

export type { LoadedCluster, BrokenClusterFile } from './config/validate-cluster-text';

/** A cluster file's text validated by this module's schema. */
export const validateClusterText: ClusterTextValidator = (input) => validateWith(input, clusterConfigSchema);

/** The loader's options; the validation is this module's unless one is handed in. */
export type ClusterLoadOptions = Omit<LoadOptions, 'validate'> & { readonly validate?: ClusterTextValidator };

export function loadClusters(options: ClusterLoadOptions) {
  return loadAllWith({ ...options, validate: options.validate ?? validateClusterText });
}

export function loadClusterFile(path: string, relayIp?: string, knownSecrets: readonly KnownSecret[] = []) {
  return loadWith(path, validateClusterText, relayIp, knownSecrets);
}
