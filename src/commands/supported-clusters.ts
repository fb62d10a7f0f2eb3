/**
 * The selected cluster files, loaded, and refused when an engine release they declare cannot run glidepath's triggers.
 */
import { ConfigError } from '../config/errors';
import { type LoadedCluster } from '../config/validate-cluster-text';
import { loadClusters } from '../clusters';
import { engineVersionProblems } from '../notifications/support/engine-support';
import { loadOptions } from './options';

export function loadSupportedClusters(...args: Parameters<typeof loadOptions>): LoadedCluster[] {
  const loaded = loadClusters(loadOptions(...args));
  const problems = loaded.flatMap(({ file, config, valueLine }) =>
    engineVersionProblems(config).map(({ field, message }) => {
      // An unset field (argocd.version, its default assumed) has no line.
      const line = valueLine?.(field.split('.'));
      return `${file}: ${field}: ${message}${line === undefined ? '' : ` (line ${line})`}`;
    }),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return loaded;
}
