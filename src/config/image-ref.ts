/** Container image references in the grammar of distribution/reference, with a tag or a digest required. */

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);

export interface ImageRef {
  readonly name: string;
  readonly tag?: string;
  readonly digest?: string;
}

export function parseImageRef(text: string): ImageRef | undefined {
  const match = REFERENCE.exec(text);
  if (!match || text.length > 255) return undefined;
  const [, name, tag, digest] = match;
  return { name: name!, ...(tag ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/** Why `text` is not a pinned image reference, or undefined when it is one. */
export function pinnedImageProblem(text: string): string | undefined {
  const ref = parseImageRef(text);
  if (!ref) {
    return `${JSON.stringify(text)} is not an image reference; expected registry/name:tag or registry/name@sha256:<digest>`;
  }
  if (ref.tag === undefined && ref.digest === undefined) {
    return `${JSON.stringify(text)} has no tag or digest; pin it, e.g. ${text}:1.2.3 or ${text}@sha256:<digest>`;
  }
  if (ref.tag === 'latest') {
    return `${JSON.stringify(text)} uses the moving tag "latest"; pin a version tag or a digest`;
  }
  return undefined;
}
