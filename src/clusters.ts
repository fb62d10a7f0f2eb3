/**
 * The cluster files as every command reads them: config's rules (src/config/), and each key of a team's extraData
 * read the way the notifications engine reads it (src/notifications/). config cannot know the engine, so it is
 * handed the engine's check here, the one place that imports both.
 */
import { loadClusterFile as loadWith, loadClusters as loadAllWith, type LoadOptions } from './config/loader';
import type { KnownSecret } from './config/environment-secrets';
import { clusterSchemas } from './config/schema';
import { extraDataRefusals } from './notifications/configmap/key-problems';

export const { clusterFileSchema, clusterConfigSchema } = clusterSchemas(extraDataRefusals);

export type { LoadedCluster, BrokenClusterFile } from './config/loader';

/** The loader's options; the schema is this module's. */
export type ClusterLoadOptions = Omit<LoadOptions, 'schema'>;

export function loadClusters(options: ClusterLoadOptions) {
  return loadAllWith({ ...options, schema: clusterConfigSchema });
}

export function loadClusterFile(path: string, relayIp?: string, knownSecrets: readonly KnownSecret[] = []) {
  return loadWith(path, clusterConfigSchema, relayIp, knownSecrets);
}
