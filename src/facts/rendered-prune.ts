/** What the rendered prune does to a Rollout's notified annotation, for a `pruneNotified` step of `facts`. */
import { parseAllDocuments } from 'yaml';
import { isRecord } from '../is-record';
import { PRUNE_CHART_ID } from '../charts/prune-chart';
import { PRUNE_CONFIG_FILE } from '../constructs/prune-program-config-map';
import { ownedKeyTest, pruneNotified } from '../notifications/notified-keys';
import type { PruneProgramConfig } from '../prune/program/notified-prune';
import type { RenderedFile } from '../render/rendered-file';

/** The annotation's value after a prune run (undefined: removed). */
export type PruneStep = (notified: string | undefined) => string | undefined;

/** The prune as rendered: the program's configuration read back from the cluster's prune ConfigMap. */
export function renderedPrune(files: readonly RenderedFile[]): PruneStep {
  const file = files.find((f) => f.path === `${PRUNE_CHART_ID}.k8s.yaml`);
  const text = parseAllDocuments(file?.content ?? '')
    .map((doc) => ('toJS' in doc ? (doc.toJS() as unknown) : undefined))
    .map((object) => (isRecord(object) && object.kind === 'ConfigMap' && isRecord(object.data) ? object.data : {}))
    .map((data) => data[PRUNE_CONFIG_FILE])
    .find((value) => typeof value === 'string');
  if (text === undefined) throw new Error(`${PRUNE_CHART_ID}.k8s.yaml: no ConfigMap with ${PRUNE_CONFIG_FILE}`);
  const config = JSON.parse(text) as PruneProgramConfig;
  const owned = ownedKeyTest(config.owned);
  return (notified) => (notified === undefined ? undefined : pruneNotified(notified, config.keys, owned).value);
}
