/** `verify`: render in memory and check every object; violations are the outcome, not an error. */
import { formatReport, formatTotals, secretValuesFromEnvironment } from '../verify/format';
import { verifyJson } from '../json-output/documents';
import { jsonLine } from '../json-output/shapes';
import { verifyCluster } from '../verify/run';
import { defineCommand } from './command';
import { clusterSelection, jsonOutput, relayIpOverride } from './options';
import { readOnlyInput } from './read-only-cluster';
import { loadSupportedClusters } from './supported-clusters';

export default defineCommand({
  name: 'verify',
  summary: 'render in memory and check every object (schema, Pod Security, RBAC, secrets, notifications)',
  usage: 'glidepath verify [options]',
  options: { ...clusterSelection, ...relayIpOverride, ...jsonOutput },
  notes: ['Exit codes: 0 no violation, 1 a violation (each is printed with its fix), 2 bad input.'],

  async run(values, context) {
    const knownSecrets = secretValuesFromEnvironment(context.env);
    const reports = readOnlyInput(() => loadSupportedClusters(values, context)).map(({ file, config, valueLine }) => {
      const clusterFile = valueLine !== undefined ? { clusterFile: { file, valueLine } } : {};
      const report = verifyCluster(config, { knownSecrets, render: context.render, ...clusterFile });
      if (!values.json) for (const line of formatReport(report, file)) context.print(line);
      return { report, file };
    });
    context.print(values.json ? jsonLine(verifyJson(reports)) : formatTotals(reports.map((r) => r.report)));
    return reports.some((r) => r.report.violations.length > 0) ? 'violations' : 'done';
  },
});
