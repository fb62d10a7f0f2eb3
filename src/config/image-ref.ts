/**
 * Container image references as the kubelet of Kubernetes 1.28 reads them: `ParseNormalizedNamed` of
 * github.com/docker/distribution/reference v2.8.2 with go-digest v1.0.0 (a pod whose image fails it ends in
 * InvalidImageName). Ported step for step, including the normalization to docker.io/library/ that the name's
 * 255-character limit counts; `npm run judge` checks it against the Go library.
 */
import { excerpt, shownImage } from './shown-input';

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
/** v2.8.2 has no bracketed IPv6 registries (later versions do). */
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
/** Upstream writes the dashes as `[-]*`; `-+` matches the same names without exponential backtracking in JavaScript. */
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const IMAGE_ID = /^[a-f0-9]{64}$/;

const NAME_MAX_LENGTH = 255;
const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_REPOSITORY = 'library';
/** go-digest's algorithms and the hex digits of each (lowercase only). */
const DIGEST_HEX_LENGTH: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };

export interface ImageRef {
  /** The name as written, without tag and digest. */
  readonly name: string;
  /** The name the kubelet uses: docker.io/ and library/ added to a short one. */
  readonly normalizedName: string;
  readonly tag?: string;
  readonly digest?: string;
}

/** The reference, or why the kubelet would refuse it. */
export function readImageRef(text: string): { ref: ImageRef } | { problem: string } {
  const problem = (why: string) => ({ problem: `${excerpt(text)} ${why}` });
  if (IMAGE_ID.test(text))
    return problem('is an image ID (64 hex digits), not a name; write registry/name@sha256:<digest>');
  const { domain, remainder } = splitDomain(text);
  const colon = remainder.indexOf(':');
  const repository = colon === -1 ? remainder : remainder.slice(0, colon);
  if (/[A-Z]/.test(repository))
    return problem('has uppercase letters in its repository name; Kubernetes accepts lowercase only');
  const match = REFERENCE.exec(`${domain}/${remainder}`);
  if (!match) {
    return problem('is not an image reference; expected registry/name:tag or registry/name@sha256:<64 hex digits>');
  }
  const normalizedName = match[1]!;
  // Groups that did not take part are undefined.
  const tag: string | undefined = match[2];
  const digest: string | undefined = match[3];
  if (normalizedName.length > NAME_MAX_LENGTH) {
    return problem(
      `has a name of ${normalizedName.length} characters as the kubelet reads it; the limit is ${NAME_MAX_LENGTH}`,
    );
  }
  if (digest !== undefined) {
    const digestProblem = digestFormatProblem(digest);
    if (digestProblem) return { problem: `${shownImage(text)} ${digestProblem}` };
  }
  const suffix = (tag === undefined ? '' : `:${tag}`) + (digest === undefined ? '' : `@${digest}`);
  const name = text.slice(0, text.length - suffix.length);
  return {
    ref: { name, normalizedName, ...(tag === undefined ? {} : { tag }), ...(digest === undefined ? {} : { digest }) },
  };
}

export function parseImageRef(text: string): ImageRef | undefined {
  const read = readImageRef(text);
  return 'ref' in read ? read.ref : undefined;
}

/**
 * distribution/reference's splitDockerDomain: the first path part is a registry only if it has "." or ":" or is
 * localhost.
 */
function splitDomain(text: string): { domain: string; remainder: string } {
  const slash = text.indexOf('/');
  const first = slash === -1 ? '' : text.slice(0, slash);
  let domain = DEFAULT_DOMAIN;
  let remainder = text;
  if (slash !== -1 && (/[.:]/.test(first) || first === 'localhost')) {
    domain = first;
    remainder = text.slice(slash + 1);
  }
  if (domain === LEGACY_DEFAULT_DOMAIN) domain = DEFAULT_DOMAIN;
  if (domain === DEFAULT_DOMAIN && !remainder.includes('/')) remainder = `${OFFICIAL_REPOSITORY}/${remainder}`;
  return { domain, remainder };
}

/** go-digest's Validate for a digest the reference grammar matched (algorithm:hex, 32 or more hex digits). */
function digestFormatProblem(digest: string): string | undefined {
  const colon = digest.indexOf(':');
  const algorithm = digest.slice(0, colon);
  const hex = digest.slice(colon + 1);
  const length = DIGEST_HEX_LENGTH[algorithm];
  const algorithms = Object.keys(DIGEST_HEX_LENGTH).join(', ');
  if (length === undefined)
    return (
      `has a digest of the unsupported algorithm ${excerpt(algorithm)}; Kubernetes accepts ${algorithms} ` +
      `(lowercase)`
    );
  if (hex.length !== length) return `has a ${algorithm} digest of ${hex.length} hex digits; it has ${length}`;
  if (/[A-F]/.test(hex)) return 'has uppercase hex digits in its digest; write them in lowercase';
  return undefined;
}

/** Why `text` is not a pinned image reference, or undefined when it is one. */
export function pinnedImageProblem(text: string): string | undefined {
  const read = readImageRef(text);
  if ('problem' in read) return read.problem;
  const { ref } = read;
  if (ref.tag === undefined && ref.digest === undefined) {
    return `${shownImage(text)} has no tag or digest; pin it: add :<version> or @sha256:<digest>`;
  }
  if (ref.tag === 'latest') {
    return `${shownImage(text)} uses the moving tag "latest"; pin a version tag or a digest`;
  }
  return undefined;
}
