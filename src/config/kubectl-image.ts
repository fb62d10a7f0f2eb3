/** Matches the prune Job's kubectl image to the cluster's Kubernetes minor version. */
import { parseImageRef, pinnedImageProblem } from './image-ref';
import { excerpt, shownImage } from './shown-input';

/** `v1.28.15`, `1.28`, `1.28.15-debian-12-r3`: the leading major.minor of a version tag. */
const VERSION_TAG = /^v?(\d+)\.(\d+)(?:[.+_-]|$)/;

/**
 * Why `image` does not fit a cluster of `kubernetesVersion` ("1.28"), or undefined when it does.
 *
 * The tag's minor version must equal the cluster's. kubectl supports one minor version of skew either way, so
 * during an upgrade either order works (bump `kubernetesVersion` and `prune.image` in the same commit); an exact
 * match keeps the rule simple and the tested combination the one that runs. A digest-only reference carries no
 * version and cannot be checked: it is accepted (its content is what the digest pins).
 * Images that are not pinned at all are left to the pinned-image check, and a malformed kubernetesVersion to its own
 * field's check, so that each problem is reported once.
 */
export function kubectlImageVersionProblem(image: string, kubernetesVersion: string): string | undefined {
  // A kubernetesVersion that is no minor version ("v1.28", "1.28.3") is reported on its own field; matching the image
  // against it would only add a wrong fix (":vv1.28.<patch>").
  if (!/^1\.\d{1,2}$/.test(kubernetesVersion)) return undefined;
  if (pinnedImageProblem(image) !== undefined) return undefined;
  const ref = parseImageRef(image);
  if (ref?.tag === undefined) return undefined;
  const match = VERSION_TAG.exec(ref.tag);
  const wanted = `v${kubernetesVersion}`;
  if (!match) {
    return (
      `${shownImage(image)}: tag ${excerpt(ref.tag)} names no Kubernetes version; use a kubectl tag of the ` +
      `cluster's minor version (kubernetesVersion "${kubernetesVersion}"), e.g. :${wanted}.<patch>, or a digest`
    );
  }
  const tagMinor = `${match[1]}.${match[2]}`;
  if (tagMinor !== kubernetesVersion) {
    return (
      `${shownImage(image)} is kubectl ${tagMinor} but kubernetesVersion is "${kubernetesVersion}"; ` +
      `use a kubectl ${kubernetesVersion} image, e.g. the tag :${wanted}.<patch>, or change both together ` +
      `when the cluster is upgraded`
    );
  }
  return undefined;
}

/** Where the prune's kubectl image comes from: the Kubernetes project's own kubectl image. */
const KUBECTL_IMAGE = 'registry.k8s.io/kubectl';

/**
 * The prune image for a cluster whose API server runs `serverVersion` (`v1.28.15`, as `kubectl get --raw /version`
 * says it): the kubectl of that very release, so its minor matches kubernetesVersion. Undefined for a version that
 * is no release of three numbers (a build's own `v1.28.15-gke.100` gives `v1.28.15`).
 */
export function pruneImageFor(serverVersion: string): string | undefined {
  const release = /^v?(\d+\.\d+\.\d+)/.exec(serverVersion)?.[1];
  return release === undefined ? undefined : `${KUBECTL_IMAGE}:v${release}`;
}
