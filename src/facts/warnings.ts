/**
 * What `facts` warns about in the objects it is given: the likely mistakes that make a fact wrong or missing
 * on the cluster although the evaluation here looks fine.
 */
import type { ClusterConfig } from '../config/schema';
import { isRecord } from '../is-record';
import { RELEASE_ID_ANNOTATION, RELEASE_TRACKED_LABEL } from '../notifications/glidepath-fact';
import type { InputState, ObjectKind } from './input';

function stringMap(value: unknown): Readonly<Record<string, unknown>> {
  return isRecord(value) ? value : {};
}

/** One warning per problem and object, in the order the objects first appear. */
export function factsWarnings(states: readonly InputState[], kind: ObjectKind, config: ClusterConfig): string[] {
  const warnings = new Set<string>();
  for (const state of states) {
    const metadata = stringMap(isRecord(state.object) ? state.object.metadata : undefined);
    const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : undefined;
    const name = typeof metadata.name === 'string' ? metadata.name : '(no name)';
    const object = `${kind.kind} ${namespace === undefined ? name : `${namespace}/${name}`}`;
    if (stringMap(metadata.labels)[RELEASE_TRACKED_LABEL] !== 'true') {
      warnings.add(
        `${object} lacks the label ${RELEASE_TRACKED_LABEL}=true: on the cluster no fact is sent for it at ` +
          `all; add the label to the ` +
          `${kind.kind}${kind.kind === 'Rollout' ? "'s own metadata (the pod template's labels do not count)" : ''}`,
      );
    }
    if (typeof stringMap(metadata.annotations)[RELEASE_ID_ANNOTATION] !== 'string') {
      warnings.add(
        `${object} has no ${RELEASE_ID_ANNOTATION} annotation: its facts carry "releaseId": null; annotate it ` +
          `with the release it deploys`,
      );
    }
    if (kind.kind === 'Rollout' && namespace !== undefined && !config.tracked.namespaces.includes(namespace)) {
      warnings.add(
        `${object} is in namespace ${namespace}, which is not in tracked.namespaces ` +
          `(${config.tracked.namespaces.join(', ')}): the prune never cleans its notified annotation, which ` +
          `grows until the engine drops its oldest keys; add ${namespace} to tracked.namespaces`,
      );
    }
  }
  return [...warnings];
}
