/** `diff`: the review of what a change would do to the gitops repo's base branch, as Markdown. */
import { diffAgainstGitops } from '../gitops/diff';
import { clusterTarget } from '../gitops/gitops-repo';
import { displayUrl } from '../gitops/remote';
import { diffJson } from '../json-output/documents';
import { jsonLine } from '../json-output/shapes';
import { defineCommand } from './command';
import { gitopsSettings, oneCluster } from './gitops-target';
import { PROVIDER_TOKEN_NOTE, gitopsTargetOptions, jsonOutput } from './options';

export default defineCommand({
  name: 'diff',
  summary: "the review (changed values and ConfigMap keys, objects added/changed/removed, YAML diff) as Markdown, against the gitops repo's base branch",
  usage: 'glidepath diff --cluster NAME [options]',
  options: {
    ...gitopsTargetOptions,
    'exit-code': { type: 'boolean', description: 'exit 3 when the cluster differs from the base' },
    ...jsonOutput,
  },
  notes: [PROVIDER_TOKEN_NOTE, '', 'Exit codes: 0 done, 1 failure, 2 bad input, 3 --exit-code: the cluster differs from the base.'],

  async run(values, context) {
    const config = oneCluster('diff', values, context);
    const settings = gitopsSettings(values, context);
    const result = await diffAgainstGitops({ ...settings, config, files: context.render(config) });
    if (values.json) {
      const target = clusterTarget(config, settings.repo, settings.base);
      context.print(jsonLine(diffJson({ cluster: config.name, repo: displayUrl(target.remote), base: target.base, result })));
    } else {
      context.print(result.markdown);
    }
    return values['exit-code'] && result.changed ? 'changes' : 'done';
  },
});
