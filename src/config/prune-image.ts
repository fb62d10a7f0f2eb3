/** The image the prune CronJob runs its program on (src/prune/program/): a Node.js runtime, nothing else. */
import { parseImageRef, pinnedImageProblem } from './image-ref';
import { shownImage } from './shown-input';

/**
 * The default image for a cluster: Google's distroless Node.js 22 (Debian 12), `nonroot` variant, pinned by digest.
 * No shell, no package manager; its entrypoint is `node`. The digest was taken from public repositories that pin
 * the same tag (one of them resolved against gcr.io on 2026-07-17); it could not be checked against the registry
 * from where this was written, which had no network: confirm it with `crane digest
 * gcr.io/distroless/nodejs22-debian12:nonroot` (docs/prune.md). The image does not depend on the cluster's Kubernetes
 * version: the program speaks only the stable `list` and `patch` of the API.
 */
export function defaultPruneImage(): string {
  return (
    'gcr.io/distroless/nodejs22-debian12:nonroot@sha256:' +
    '13593b7570658e8477de39e2f4a1dd25db2f836d68a0ba771251572d23bb4f8e'
  );
}

/** Why `image` cannot run the prune program, or undefined: a kubectl image (what the prune ran before) has no Node. */
export function pruneImageProblem(image: string): string | undefined {
  if (pinnedImageProblem(image) !== undefined) return undefined; // reported once, by the pinned-image check
  const name = parseImageRef(image)?.name;
  if (name === undefined || !/(^|\/)kubectl$/.test(name)) return undefined;
  return (
    `${shownImage(image)} is a kubectl image; the prune now runs a small Node.js program that edits the annotation ` +
    `key by key (docs/prune.md), which kubectl cannot: remove prune.image to use the default ` +
    `${defaultPruneImage()}, or set a Node.js 20+ image whose entrypoint is node, pinned by digest`
  );
}
