/** Kubernetes and network name rules the cluster file is checked against. */
import { isIP } from 'node:net';

/** RFC 1123 label: a namespace or cluster name. */
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** RFC 1123 subdomain: a ConfigMap, Secret or other object name. */
export const DNS_SUBDOMAIN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A label or annotation key: an optional DNS-subdomain prefix and `/`, then a name of at most 63 characters. */
export const LABEL_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

/** A label value: empty, or at most 63 letters, digits, `-`, `_` and `.`, starting and ending alphanumeric. */
export const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$/;

/** A hostname with at least one letter in its last label, so that an IP with a typo is not taken for a name. */
export const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\.)*[a-z0-9]*[a-z][-a-z0-9]*$/;

/** A key of the notifications Secret as the engine substitutes it in `$key` (`[$][\w-]+`). */
export const SECRET_KEY = /^[A-Za-z0-9_-]{1,253}$/;

export function isIpAddress(text: string): boolean {
  return isIP(text) !== 0;
}

/** An engine release as the cluster file writes it: three numbers, no "v". */
export const RELEASE = /^\d+\.\d+\.\d+$/;
