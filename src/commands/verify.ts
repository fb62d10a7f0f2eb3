/** `verify`: render in memory and check every object; violations are the outcome, not an error. */
import { formatReport, formatTotals, secretsFromEnvironment } from '../verify/format';
import { verifyCluster } from '../verify/run';
import { defineCommand } from './command';
import { clusterSelection, relayIpOverride } from './options';
import { loadSupportedClusters } from './supported-clusters';

export default defineCommand({
  name: 'verify',
  summary: 'render in memory and check every object (schema, Pod Security, RBAC, secrets, notifications)',
  usage: 'glidepath verify [options]',
  options: { ...clusterSelection, ...relayIpOverride },
  notes: ['Exit codes: 0 no violation, 1 a violation (each is printed with its fix), 2 bad input.'],

  async run(values, context) {
    const knownSecrets = secretsFromEnvironment(context.env);
    const reports = loadSupportedClusters(values, context).map(({ file, config }) => {
      const report = verifyCluster(config, { knownSecrets, render: context.render });
      for (const line of formatReport(report, file)) context.print(line);
      return report;
    });
    context.print(formatTotals(reports));
    return reports.some((r) => r.violations.length > 0) ? 'violations' : 'done';
  },
});
