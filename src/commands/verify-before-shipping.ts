/** `pr` and `diff` run verify's rules on the render they ship or compare, and refuse one that violates them. */
import type { LoadedCluster } from '../config/validate-cluster-text';
import type { ClusterConfig } from '../config/schema';
import { GlidepathError } from '../errors';
import type { RenderedFile } from '../render/render-cluster';
import { secretValuesFromEnvironment } from '../verify/format';
import { verifyCluster } from '../verify/run';
import type { CommandContext, OptionSpec } from './command';

export const skipVerifyOption = {
  'skip-verify': {
    type: 'boolean',
    description:
      "ship a render that verify's rules reject, in an emergency: the change's body says it was not verified",
  },
} as const satisfies Record<string, OptionSpec>;

export interface RenderedCluster {
  readonly config: ClusterConfig;
  readonly files: readonly RenderedFile[];
}

/**
 * verify's rules on each render, exactly as `npm run verify` runs them: each cluster whose render violates them gets
 * its error, which lists the violations; the others none. With `skip`, nothing is checked.
 */
export function verifyRenders(
  command: string,
  loaded: readonly LoadedCluster[],
  clusters: readonly RenderedCluster[],
  context: CommandContext,
  skip: boolean,
): Map<string, GlidepathError> {
  const refused = new Map<string, GlidepathError>();
  if (skip) return refused;
  const knownSecrets = secretValuesFromEnvironment(context.env);
  for (const { config, files } of clusters) {
    const { violations } = verifyCluster(config, { knownSecrets, render: () => [...files] });
    if (violations.length === 0) continue;
    const file = loaded.find((l) => l.config.name === config.name)?.file ?? config.name;
    const count = violations.length === 1 ? 'a violation' : `${violations.length} violations`;
    const listed = violations.flatMap((v) => [`    ✗ ${v.object}: ${v.rule}: ${v.message}`, `        fix: ${v.fix}`]);
    refused.set(
      config.name,
      new GlidepathError(
        [
          `verify found ${count} in the render of ${config.name} (${file}); ${command} refuses a render that ` +
            `verify rejects:`,
          ...listed,
        ].join('\n'),
        `fix them (glidepath verify --cluster ${config.name} shows the same), or pass --skip-verify in an ` +
          `emergency: the change's body then says it was not verified`,
        false,
      ),
    );
  }
  return refused;
}
