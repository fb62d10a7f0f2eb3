/** `diff`: the review of what a change would do to the gitops repo's base branch, as Markdown. */
import { diffAgainstGitops } from '../gitops/diff';
import { defineCommand } from './command';
import { gitopsSettings, oneCluster } from './gitops-target';
import { PROVIDER_TOKEN_NOTE, gitopsTargetOptions } from './options';

export default defineCommand({
  name: 'diff',
  summary: "the review (changed values and ConfigMap keys, objects added/changed/removed, YAML diff) as Markdown, against the gitops repo's base branch",
  usage: 'glidepath diff --cluster NAME [options]',
  options: {
    ...gitopsTargetOptions,
    'exit-code': { type: 'boolean', description: 'exit 3 when the cluster differs from the base' },
  },
  notes: [PROVIDER_TOKEN_NOTE, '', 'Exit codes: 0 done, 1 failure, 2 bad input, 3 --exit-code: the cluster differs from the base.'],

  async run(values, context) {
    const config = oneCluster('diff', values, context);
    const result = await diffAgainstGitops({ ...gitopsSettings(values, context), config, files: context.render(config) });
    context.print(result.markdown);
    return values['exit-code'] && result.changed ? 'changes' : 'done';
  },
});
