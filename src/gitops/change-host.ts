/** What the pull-request flow asks of a gitops host: its open changes, and opening, updating and closing one. */
import { GitopsError } from './errors';
import { FORGE_NAMES, FORGES } from '../forges';

export const PROVIDERS = [...FORGE_NAMES, 'none'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** How messages name a provider's change. */
export const CHANGE_NOUNS: Readonly<Record<ProviderName, string>> = {
  github: FORGES.github.change.noun,
  gitlab: FORGES.gitlab.change.noun,
  gitea: FORGES.gitea.change.noun,
  none: 'branch',
};
/** What goes before a change's number: `#12`, `!12`. */
export const CHANGE_SIGILS: Readonly<Record<ProviderName, string>> = {
  github: FORGES.github.change.sigil,
  gitlab: FORGES.gitlab.change.sigil,
  gitea: FORGES.gitea.change.sigil,
  none: '',
};

/** A pull request (GitHub, Gitea), a merge request (GitLab), or a pushed branch waiting for a person (none). */
export interface ChangeRequest {
  /** GitHub's or Gitea's pull request number, GitLab's merge request iid; 0 for a branch without a change (none). */
  readonly number: number;
  /** Where a person sees it (for `none`: the compare page, when the host is known). */
  readonly url: string;
  readonly branch: string;
  readonly base: string;
  readonly title: string;
  readonly body: string;
}

export interface ChangeFields {
  readonly title: string;
  readonly body: string;
}

/** What a new change gets where the host supports it. */
export interface ChangeExtras {
  readonly draft?: boolean;
  readonly labels?: readonly string[];
  readonly reviewers?: readonly string[];
}

export interface ChangeHost {
  readonly provider: ProviderName;
  /** `pull request`, `merge request`, `branch`: how messages name a change. */
  readonly noun: string;
  /** `#12` or `!12`: how the host writes a change's number. */
  readonly sigil: string;
  /** The longest body the host accepts. */
  readonly bodyLimit: number;
  /**
   * Every open change from this repository's branches under `branchPrefix`, oldest first: one listing for the whole
   * run.
   */
  findOpen(branchPrefix: string): Promise<ChangeRequest[]>;
  create(base: string, branch: string, fields: ChangeFields, extras: ChangeExtras): Promise<ChangeRequest>;
  update(change: ChangeRequest, fields: ChangeFields): Promise<ChangeRequest>;
  close(change: ChangeRequest): Promise<ChangeRequest>;
}

/** How messages name a change: `pull request #12`, `merge request !3`, `branch glidepath/prod/0a1b2c3d4e5f`. */
export function changeLabel(
  host: Pick<ChangeHost, 'noun' | 'sigil'>,
  change: Pick<ChangeRequest, 'number' | 'branch'>,
): string {
  return change.number > 0 ? `${host.noun} ${host.sigil}${change.number}` : `${host.noun} ${change.branch}`;
}

/**
 * `create` failed after the change was opened (labelling it, asking for reviews): the change is this run's own, so
 * the failure is not another run's change found in its place.
 */
export class FailedAfterOpeningError extends GitopsError {
  constructor(
    readonly change: ChangeRequest,
    cause: GitopsError,
  ) {
    super(cause.kind, cause.message, cause.fix);
  }
}
