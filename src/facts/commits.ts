/** The git commits a Rollout or an Application names, which `facts` shows although a token may have their shape. */
import { GIT_COMMIT } from '../config/masked-text';
import { isRecord } from '../is-record';
import { RELEASE_ID_ANNOTATION } from '../notifications/glidepath-fact';
import type { InputState } from './input';

/** Keys whose values Argo CD fills with commits (`status.sync.revision`, `operationState.syncResult.revisions`). */
const REVISION_KEYS: ReadonlySet<string> = new Set(['revision', 'revisions']);

/** The release ids and revisions of the states that are full git commits (40 hex digits). */
export function commitsOf(states: readonly InputState[]): string[] {
  const commits = new Set<string>();
  const visit = (node: unknown, key: string | undefined): void => {
    if (typeof node === 'string' && key !== undefined && GIT_COMMIT.test(node)) commits.add(node);
    else if (Array.isArray(node)) node.forEach((item) => visit(item, key));
    else if (isRecord(node))
      for (const [name, value] of Object.entries(node)) visit(value, REVISION_KEYS.has(name) ? name : undefined);
  };
  for (const state of states) {
    visit(state.object, undefined);
    const metadata = isRecord(state.object) && isRecord(state.object.metadata) ? state.object.metadata : {};
    const annotations = isRecord(metadata.annotations) ? metadata.annotations : {};
    visit(annotations[RELEASE_ID_ANNOTATION], RELEASE_ID_ANNOTATION);
  }
  return [...commits];
}
