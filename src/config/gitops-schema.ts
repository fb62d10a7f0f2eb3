/** `gitops`: the repository the rendered files are shipped to, and the folders glidepath owns in it. */
import * as z from 'zod';
import { FORGE_NAMES, PROVIDER_CHOICES, providerOpens } from '../forges';
import { strict } from './strict-object';

/**
 * Folder names git keeps for itself, in any case and with the trailing dots NTFS drops: a hosted remote's fsck refuses
 * them.
 */
const GIT_RESERVED_FOLDER = /^\.git(?:modules|attributes)?\.*$/i;
const RELATIVE_FOLDER = /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._/-]+$/;

/** A folder glidepath owns in the gitops repo: relative, no "." or ".." and no name git reserves. */
function gitopsFolder(example: string) {
  return z
    .string()
    .regex(RELATIVE_FOLDER, {
      error: `must be a relative folder inside the gitops repo, without "." or ".." segments, e.g. ${example}`,
    })
    .superRefine((path, ctx) => {
      if (!RELATIVE_FOLDER.test(path)) return; // said above
      const segments = path.replace(/\/+$/, '').split('/');
      const reserved = segments.find((segment) => GIT_RESERVED_FOLDER.test(segment));
      if (reserved !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message:
            `has the folder ${reserved}, a name git keeps for itself: a hosted remote refuses the push (git fsck: ` +
            `hasDotgit, gitmodulesBlob, gitattributesBlob); choose another, e.g. ${example}`,
        });
      } else if (segments.includes('')) {
        ctx.addIssue({
          code: 'custom',
          message: `has an empty folder name ("//"); write one "/" between folders, e.g. ${example}`,
        });
      }
    });
}

export const gitops = strict({
  repo: z
    .string()
    .min(1, { error: 'must name the gitops repository' })
    .meta({
      description:
        'the cluster gitops repository (URL or local path; a relative path is read from the folder the command ' +
        'runs in, not from the cluster file)',
    }),
  path: gitopsFolder('clusters/prod/glidepath').optional().meta({
    description: 'folder inside it that this tool owns (relative, no `..`)',
    defaultText: '`clusters/<name>/glidepath`',
  }),
  baseBranch: z
    .string()
    .regex(/^[A-Za-z0-9._/-]+$/, { error: 'must be a branch name' })
    .default('main')
    .meta({ description: 'branch pull requests target' }),
  valuesPath: gitopsFolder('clusters/prod/glidepath-values').optional().meta({
    description:
      'folder of the helm values files (`delivery: helm-values`), outside `path` so that Argo CD never applies them',
    defaultText: '`<gitops.path>-values`',
  }),
  provider: z
    .enum([...FORGE_NAMES, 'none'], { error: `must be ${PROVIDER_CHOICES}` })
    .optional()
    .meta({
      description:
        `who opens the change: ${providerOpens()} or \`none\` (push the branch only); github.com, gitlab.com, ` +
        'gitea.com and codeberg.org are recognised, any other host needs it (see [gitops.md](gitops.md))',
      defaultText: 'from the host',
    }),
});
