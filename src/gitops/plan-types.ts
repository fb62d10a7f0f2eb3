/** What the planner decides from (a snapshot of the repository, read before it decides) and what it decides. */
import type { KnownSecret } from '../config/environment-secrets';
import type { ForeignChanges } from './branch-commits';
import type { ChangeHost, ChangeRequest } from './change-host';
import type { FetchedRefs, FolderCommit, ReplacedFolder, TreeEntry } from './repo';
import type { PreparedCluster } from './ship-prepare';
import type { PullRequestResult } from './ship-types';
import type { SourceRevision } from './source';

/** Everything the planner knows of a gitops repository: data only, so that the planner runs without git. */
export interface RepoSnapshot {
  readonly fetched: Omit<FetchedRefs, 'missingBases'>;
  /** Each base commit's tree. */
  readonly trees: ReadonlyMap<string, readonly TreeEntry[]>;
  /** The text of the base's files that the changed clusters replace, by blob id. */
  readonly blobs: ReadonlyMap<string, string>;
  /** Every open glidepath change of the repository (empty when the API was not asked). */
  readonly open: readonly ChangeRequest[];
  /**
   * `none`: the glidepath branches their base already holds (no open change; deleted once the base holds the render).
   */
  readonly merged: readonly ChangeRequest[];
  /** Notes about the repository, for every cluster (a rewritten base). */
  readonly notes: readonly string[];
  /**
   * For each branch a render may go onto: where it meets its base (the base's commit when it contains it; undefined:
   * no common history).
   */
  readonly mergeBases: ReadonlyMap<string, string | undefined>;
  /** For each such branch's tip: the paths it changes compared with that merge base (when the two differ). */
  readonly changedPaths: ReadonlyMap<string, readonly string[]>;
  /** The object id of each `<commit>:<path>` the plan looks at; undefined where the path is missing. */
  readonly ids: ReadonlyMap<string, string | undefined>;
  /** For each branch tip the plan builds on or deletes: the commits glidepath did not write, and what they changed. */
  readonly foreign: ReadonlyMap<string, ForeignChanges>;
}

/** What the plan says of the run: the host's words and limits, the source, and how the run was started. */
export interface PlanContext {
  /** Undefined when the API is not asked (a dry run without a token). */
  readonly host: Pick<ChangeHost, 'noun' | 'sigil' | 'bodyLimit'> | undefined;
  readonly source: SourceRevision;
  readonly dryRun: boolean;
  /** Shipped with `--skip-verify`. */
  readonly unverified: boolean;
  /** How the render differs from what its cluster file gives (`--relay-ip`). */
  readonly override?: string | undefined;
  /** The environment's secrets: masked where the base shows one in a review. */
  readonly knownSecrets: readonly KnownSecret[];
}

export interface ClusterPlan {
  readonly cluster: PreparedCluster;
  /** The result as planned; the flow fills in the commit, the change and what was closed. */
  result?: PullRequestResult;
  /** The folders a commit replaces: the manifests, and the helm values when the render or the base has any. */
  folders: readonly ReplacedFolder[];
  /** The commit to write, when one is needed. */
  build?: FolderCommit;
  /** The branch's commit as fetched. */
  tip?: string | undefined;
  /** The open change this render goes onto. */
  existing?: ChangeRequest;
  /** Open changes the base made obsolete (no change left), to close. */
  obsolete: readonly ChangeRequest[];
  error?: Error;
}
