/** The gitops repository over the git CLI, in glidepath's bare cache: the one implementation of GitopsRepo. */
import type { BareCache } from './cache';
import { changedPaths, firstParentLog, listTree, readBlobs, resolveSpecs, writeFolderCommits } from './git-objects';
import { pushBranches, pushedAlike } from './push';
import { branchesContaining, branchesMergedInto, fetchRefs, isAncestor, mergeBase, readTips } from './refs';
import type { BranchUpdate, CommitIdentity, FolderCommit, GitopsRepo } from './repo';

export class GitCliRepo implements GitopsRepo {
  constructor(readonly cache: BareCache) {}

  get remote() {
    return this.cache.remote;
  }

  fetch(bases: readonly string[], branchPrefix: string) {
    return fetchRefs(this.cache, bases, branchPrefix);
  }

  tips(bases: readonly string[], prefix: string) {
    return readTips(this.cache, bases, prefix);
  }

  listTree(commit: string) {
    return listTree(this.cache, commit);
  }

  readBlobs(ids: readonly string[]) {
    return readBlobs(this.cache, ids);
  }

  resolveSpecs(specs: readonly string[]) {
    return resolveSpecs(this.cache, specs);
  }

  changedPaths(pairs: readonly (readonly [string, string])[]) {
    return changedPaths(this.cache, pairs);
  }

  firstParentLog(tips: readonly string[], base: string) {
    return firstParentLog(this.cache, tips, base);
  }

  isAncestor(ancestor: string, descendant: string) {
    return isAncestor(this.cache, ancestor, descendant);
  }

  mergeBase(a: string, b: string) {
    return mergeBase(this.cache, a, b);
  }

  branchesContaining(commit: string, prefix: string) {
    return branchesContaining(this.cache, commit, prefix);
  }

  branchesMergedInto(commit: string, prefix: string) {
    return branchesMergedInto(this.cache, commit, prefix);
  }

  writeCommits(commits: readonly FolderCommit[], identity: CommitIdentity, options?: { datedAsParent?: boolean }) {
    return writeFolderCommits(this.cache, commits, identity, options);
  }

  push(updates: readonly BranchUpdate[], pushOptions?: readonly string[]) {
    return pushBranches(this.cache, updates, pushOptions);
  }

  pushedAlike(failed: readonly (BranchUpdate & { readonly commit: string })[]) {
    return pushedAlike(this.cache, failed);
  }
}
