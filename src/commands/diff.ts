/** `diff`: the review of what a change would do to the gitops repo's base branch, as Markdown. */
import { diffAgainstGitops } from '../gitops/diff';
import { clusterTarget } from '../gitops/gitops-repo';
import { displayUrl } from '../gitops/remote';
import { diffJson } from '../json-output/documents';
import { jsonLine } from '../json-output/shapes';
import { defineCommand } from './command';
import { gitopsSettings, oneCluster, relayIpOverrideNote } from './gitops-target';
import { PROVIDER_TOKEN_NOTE, gitopsTargetOptions, jsonOutput } from './options';
import { skipVerifyOption, verifyRenders } from './verify-before-shipping';

export default defineCommand({
  name: 'diff',
  summary:
    'the review (changed values and ConfigMap keys, objects added/changed/removed, YAML diff) as Markdown, ' +
    "against the gitops repo's base branch",
  usage: 'glidepath diff --cluster NAME [options]',
  options: {
    ...gitopsTargetOptions,
    'exit-code': { type: 'boolean', description: 'exit 3 when the cluster differs from the base' },
    ...skipVerifyOption,
    ...jsonOutput,
  },
  notes: [
    PROVIDER_TOKEN_NOTE,
    '',
    'Exit codes: 0 done, 1 failure, 2 bad input, 3 --exit-code: the cluster differs from the base.',
  ],

  async run(values, context) {
    const loaded = oneCluster('diff', values, context);
    const { config } = loaded;
    const files = context.render(config);
    const unverified = values['skip-verify'] === true;
    const refused = verifyRenders('diff', [loaded], [{ config, files }], context, unverified).get(config.name);
    if (refused !== undefined) throw refused;
    const settings = gitopsSettings(values, context);
    const override = relayIpOverrideNote(values, config);
    const result = await diffAgainstGitops({
      ...settings,
      config,
      files,
      ...(unverified ? { unverified } : {}),
      ...(override !== undefined ? { override } : {}),
    });
    if (values.json) {
      const target = clusterTarget(config, settings.repo, settings.base);
      context.print(
        jsonLine(diffJson({ cluster: config.name, repo: displayUrl(target.remote), base: target.base, result })),
      );
    } else {
      context.print(result.markdown);
    }
    return values['exit-code'] && result.changed ? 'changes' : 'done';
  },
});
