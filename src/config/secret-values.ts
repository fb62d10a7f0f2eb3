/**
 * Recognises values that look like secrets (tokens, passwords, private keys), so that a cluster file that
 * tries to carry one is refused at the boundary and rendered output can be checked for them. A finding
 * never repeats the value: messages show at most its first characters.
 */

import { MIN_KNOWN_SECRET_LENGTH, type KnownSecret } from './environment-secrets';
import { percentDecoded } from './percent-decoded';

import { characterClasses, isJoinedWords, shannonEntropy } from './text-shape';

export interface SecretFinding {
  /** Field path in the data, e.g. ['relay', 'port'], safe to print: a key that is itself a secret is masked. */
  readonly path: readonly (string | number)[];
  /** The path as it is in the data, to redact it; never print it. */
  readonly rawPath: readonly (string | number)[];
  /** What it looks like, e.g. `looks like a GitHub token (ghp_…)`. */
  readonly reason: string;
  /**
   * `value`: the value itself looks like a secret; `key-name`: a field named like one (token, password) holds a value.
   */
  readonly by: 'value' | 'key-name';
}

/** A pattern whose match starts with its token's kind (`ghp_`, `glpat-`, `Bearer`): mask() shows those characters. */
const NAMES_KIND = 'names its kind';

const PATTERNS: readonly (readonly [RegExp, string, typeof NAMES_KIND?])[] = [
  // PEM (RSA, EC, OPENSSH, ...) and OpenPGP's armour (`-----BEGIN PGP PRIVATE KEY BLOCK-----`).
  [/-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----/, 'a private key', NAMES_KIND],
  [/\bBearer\s+(?!\$)[A-Za-z0-9._~+/-]{6,}=*/i, 'a bearer token', NAMES_KIND],
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/, 'a GitHub token', NAMES_KIND],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/, 'a GitHub token', NAMES_KIND],
  // Classic GitHub and many API tokens; not after `:` or `/`, where a 40-hex git commit names an image tag or a path,
  // nor as a URL's `ref=` (a git commit: kustomize remote bases, the GitHub contents API).
  [/(?<![0-9A-Za-z:@/._-])(?<![?&]ref=)[0-9a-f]{40}(?![0-9A-Za-z])/, 'a 40-character hex token'],
  // The whole token, its signature too: a message gives its length.
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/, 'a JSON Web Token', NAMES_KIND],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key', NAMES_KIND],
  // GitLab's prefixed tokens: personal (glpat-, 20 characters, or the longer routable form with `.01.` and a
  // checksum), deploy (gldt-), pipeline trigger, runner, OAuth application, CI job, feed, incoming mail, agent, SCIM.
  [/\bgl(?:pat|dt|ptt|rt|oas|cbt|ft|imt|agent|soat|ffct)-[0-9A-Za-z_-]{20,}/, 'a GitLab token', NAMES_KIND],
  [/\b[sr]k_(?:live|test)_[0-9A-Za-z]{10,}/, 'a Stripe secret key', NAMES_KIND],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, 'a Slack token', NAMES_KIND],
  [/\bhooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{8,}/i, 'a Slack webhook URL'],
  // A scheme is short: an unbounded one made every word of `a-b-c-...` scan to the end (quadratic, minutes). A longer
  // one is still a URL: the match then starts at `://`.
  [/(?:\b[a-z][a-z0-9+.-]{0,63})?:\/\/[^/\s:@]+:[^/\s@]+@/i, 'a URL with a password in it'],
  // user:password@host inside text, without a scheme (mailto:someone@host is an address, not a password).
  [/(?<![\w.+-])(?!mailto:)[\w.+-]+:[^\s/@:]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/, 'a user:password@host credential'],
  [
    /[?&](?:[\w.-]*[-_.])?(?:access[-_]?)?(?:token|secret|password|passwd|pwd|api[-_]?key|apikey|sig|signature|auth)=(?![\s&#$]|\{\{)[^\s&#]+/i,
    'a URL with a credential in its query',
  ],
];

/** `Basic <base64 of user:password>`: checked by decoding, so that the words "Basic authentication" pass. */
const BASIC_AUTH = /\bBasic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/i;

/** `scheme://user@`: the user name of a URL without a password, which a token can be (`https://<token>@host`). */
const URL_USER = /(?:\b[a-z][a-z0-9+.-]{0,63})?:\/\/([^/\s:@]+)@/gi;
/** A user name that is a token: long, of token characters, letters and digits mixed (`git`, `deploy-bot` are names). */
const TOKEN_USER = /^(?=.*[0-9])(?=.*[A-Za-z])[A-Za-z0-9_-]{20,}$/;

/** A run of base64 that may be a whole encoded value: at least 8 characters, not inside a longer word. */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{8,}={0,2}(?![A-Za-z0-9+/=_-])/g;
/** What base64 of `user:password` decodes to (a URL, `http://x`, is not one). */
const USER_PASSWORD = /^[\w.@+-]{1,64}:(?!\/\/)\S{3,}$/;
/** Printable ASCII text (and tab, newline, return): random bytes decode to this almost never. */
const PRINTABLE_TEXT = /^[\x20-\x7e\t\n\r]{3,}$/;

/**
 * An AWS secret access key is 40 base64 characters, often with `/` or `+` (where the token runs below stop): it
 * must mix upper and lower case and a digit, and not decode to text (base64 of a sentence is not a key). This much
 * entropy: 99 in 100 random 40-character keys have more; paths of capitalised words (`Org/Repo/Blob/...`) about 4.3.
 */
const AWS_SECRET_MIN_ENTROPY = 4.45;

/** Long runs of token characters; a run is a secret when it is also high-entropy and mixes character classes. */
const TOKEN_RUN = /[A-Za-z0-9_+=-]{32,}/g;
const MIN_ENTROPY_BITS_PER_CHAR = 4.2;

/**
 * A key whose last word is one of these holds a secret (`apiToken`, `relayAuth`, `db-password`, `api_key`); one
 * whose last word is not names something else (`authUrl`, `secretName`).
 */
const SECRET_LAST_WORDS = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'pass',
  'pwd',
  'passphrase',
  'auth',
  'authorization',
  'bearer',
  'credential',
  'credentials',
  'apikey',
  'privatekey',
]);
const SECRET_LAST_TWO_WORDS = new Set(['api key', 'private key', 'access key', 'secret key']);
/** Fields of the cluster file that hold the *name* of a Secret or of a key in one, not a secret. */
export const SECRET_NAME_FIELDS: ReadonlySet<string> = new Set(['relay.tokenSecretKey', 'veridor.secret']);
/** No secret under any name: empty, or a switch (a pod's `vault.hashicorp.com/agent-inject-token: "true"`). */
const NEVER_A_SECRET = /^(|true|false|enabled|disabled)$/i;

export function isSecretKeyName(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
  const last = words.at(-1) ?? '';
  return SECRET_LAST_WORDS.has(last) || SECRET_LAST_TWO_WORDS.has(words.slice(-2).join(' '));
}

/** The longest text checked; a cluster file is at most 1 MiB. Longer text counts as a secret (it is masked). */
export const MAX_CHECKED_LENGTH = 2 * 1024 * 1024;

/** A `%xx` escape: the notifications engine, the relay and git decode them in URLs and paths. */
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;

/** Why `text` looks like a secret value (or holds a known one), or undefined. */
export function secretLikeReason(text: string, known: readonly KnownSecret[] = []): string | undefined {
  // Longer text (a line of a huge file in the gitops repo) overflowed the regular expressions' stack: a crash.
  if (text.length > MAX_CHECKED_LENGTH) return `is too long to check for secrets (${text.length} characters)`;
  const reason = plainSecretReason(text, known);
  if (reason !== undefined || !PERCENT_ESCAPE.test(text)) return reason;
  const decoded = percentDecoded(text);
  const inside = decoded === text ? undefined : plainSecretReason(decoded, known);
  return inside === undefined ? undefined : `holds percent-encoded text that ${inside.replace(/^looks like/, 'is')}`;
}

/** Why `text` holds a secret of the environment, or undefined. */
export function knownSecretReason(text: string, known: readonly KnownSecret[]): string | undefined {
  const secret = known.find(({ value }) => value.length >= MIN_KNOWN_SECRET_LENGTH && text.includes(value));
  return secret && `holds the value of the environment variable ${secret.name}`;
}

function plainSecretReason(text: string, known: readonly KnownSecret[]): string | undefined {
  const knownReason = knownSecretReason(text, known);
  if (knownReason !== undefined) return knownReason;
  for (const [pattern, what] of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return `looks like ${what} (${mask(match[0])})`;
  }
  const basic = BASIC_AUTH.exec(text);
  if (basic && Buffer.from(basic[1]!, 'base64').toString('latin1').includes(':'))
    return `looks like a Basic auth credential (${mask(basic[0])})`;
  for (const [, user] of text.matchAll(URL_USER)) {
    if (TOKEN_USER.test(user!) || secretLikeReason(user!) !== undefined)
      return `looks like a URL with a token as its user name (${mask(user!)})`;
  }
  for (const [whole] of text.matchAll(BASE64_RUN)) {
    // In a path (`/outcome/<key>`, `https://host/org/<key>`) the value starts or ends at a "/".
    for (const run of slashBoundedParts(whole)) {
      if (
        run.length === 40 &&
        /[/+]/.test(run) &&
        /(?:[A-Z].*){4}/.test(run) &&
        /(?:[a-z].*){4}/.test(run) &&
        /[0-9]/.test(run) &&
        decodedText(run) === undefined &&
        shannonEntropy(run) >= AWS_SECRET_MIN_ENTROPY
      ) {
        return `looks like an AWS secret access key (${mask(run)})`;
      }
      const decoded = run.length >= 8 ? decodedText(run) : undefined;
      if (decoded === undefined) continue;
      if (USER_PASSWORD.test(decoded)) return `looks like base64 of a user:password credential (${mask(run)})`;
      const inside = secretLikeReason(decoded, known);
      if (inside !== undefined) return `holds base64 that ${inside.replace(/ \([^()]*\)$/, '')} (${mask(run)})`;
    }
  }
  for (const run of text.match(TOKEN_RUN) ?? []) {
    // Base64 of text is that text, judged above, not a random token.
    if (
      !isJoinedWords(run) &&
      characterClasses(run) >= 3 &&
      shannonEntropy(run) >= MIN_ENTROPY_BITS_PER_CHAR &&
      decodedText(run.replace(/=+$/, '')) === undefined
    ) {
      return `looks like a token: a ${run.length}-character high-entropy string (${mask(run)})`;
    }
  }
  return undefined;
}

/**
 * A run, then every stretch of its "/"-separated parts (at most 16 parts are split): where a value in a path may be.
 */
function slashBoundedParts(run: string): string[] {
  const parts = run.split('/');
  if (parts.length === 1 || parts.length > 16) return [run];
  const stretches = [run];
  for (let i = 0; i < parts.length; i++)
    for (let j = i + 1; j <= parts.length; j++) if (j - i < parts.length) stretches.push(parts.slice(i, j).join('/'));
  return stretches.filter((s) => s !== '');
}

/** The text a base64 run encodes, when it is printable text; undefined for random bytes or no base64 at all. */
function decodedText(run: string): string | undefined {
  const bare = run.replace(/=+$/, '');
  if (bare.length % 4 === 1 || !/^[A-Za-z0-9+/]+$/.test(bare)) return undefined;
  const text = Buffer.from(bare, 'base64').toString('latin1');
  return PRINTABLE_TEXT.test(text) ? text : undefined;
}

/** Every string value (and every key name) in `data` that looks like a secret. */
export function findSecretLikeValues(
  data: unknown,
  known: readonly KnownSecret[] = [],
  path: readonly (string | number)[] = [],
  seen = new Set<object>(),
): SecretFinding[] {
  // YAML aliases can make the data cyclic (`relay: &r {<<: *r}`): visit every object once.
  if (typeof data === 'object' && data !== null) {
    if (seen.has(data)) return [];
    seen.add(data);
  }
  if (typeof data === 'string') {
    const reason = secretLikeReason(data, known);
    return reason ? [{ path, rawPath: path, reason, by: 'value' }] : [];
  }
  // A number is checked against the environment's secrets only (a PIN): its digits are no token's shape.
  if (typeof data === 'number' || typeof data === 'bigint') {
    const reason = knownSecretReason(String(data), known);
    return reason ? [{ path, rawPath: path, reason, by: 'value' }] : [];
  }
  if (Array.isArray(data)) return data.flatMap((item, i) => findSecretLikeValues(item, known, [...path, i], seen));
  if (typeof data === 'object' && data !== null) {
    return Object.entries(data).flatMap(([key, value]) => {
      const keyReason = secretLikeReason(key, known);
      // The path names the key masked: printing it whole would print the secret.
      if (keyReason)
        return [
          { path: [...path, mask(key)], rawPath: [...path, key], reason: `the key name ${keyReason}`, by: 'value' },
        ];
      const at = [...path, key];
      const inValue = findSecretLikeValues(value, known, at, seen);
      const namesSecret = isSecretKeyName(key) && !SECRET_NAME_FIELDS.has(at.join('.'));
      if (inValue.length === 0 && namesSecret && typeof value === 'string' && !NEVER_A_SECRET.test(value)) {
        return [
          {
            path: at,
            rawPath: at,
            reason: `a field named ${JSON.stringify(key)} holds a value`,
            by: 'key-name' as const,
          },
        ];
      }
      return inValue;
    });
  }
  return [];
}

/** What a secret-looking value becomes before validation; the finding already says what was wrong. */
export const REDACTED = '[redacted]';

/**
 * A copy of `data` with every secret-looking value replaced by `[redacted]`, so that no later message can
 * echo it, and the findings.
 */
export function redactSecretLikeValues(
  data: unknown,
  known: readonly KnownSecret[] = [],
): { data: unknown; findings: SecretFinding[] } {
  const findings = findSecretLikeValues(data, known);
  if (findings.length === 0) return { data, findings };
  const copy = structuredClone(data) as Record<string | number, unknown>;
  for (const { path, rawPath } of findings) {
    if (rawPath.length === 0) return { data: REDACTED, findings };
    let node: Record<string | number, unknown> = copy;
    for (const key of rawPath.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
    const last = rawPath[rawPath.length - 1]!;
    // A secret in a key name: drop the entry, so that no message names the key.
    if (path[path.length - 1] !== last) delete node[last];
    else node[last] = REDACTED;
  }
  return { data: copy, findings };
}

/** The first 4 characters (of a long text) and the length: enough to find the value, not enough to use it. */
export function mask(value: string): string {
  // Only a token's kind is shown: the first characters of a password (from the environment, or in a URL) are secret.
  return `${namesItsKind(value) ? value.slice(0, 4) : ''}… ${value.length} characters`;
}

/** A token of a known kind and shape from its first character on, in its case: `ghp_…`, not `asiaTrip2024`. */
function namesItsKind(value: string): boolean {
  const kinds = PATTERNS.filter(([, , kind]) => kind === NAMES_KIND).map(([pattern]) => pattern);
  return [...kinds, BASIC_AUTH].some((pattern) => pattern.exec(value)?.index === 0);
}

/** What mask() returns. */
export const MASKED = /^[^]{0,4}… \d+ characters$/u;
