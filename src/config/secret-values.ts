/**
 * Recognises values that look like secrets (tokens, passwords, private keys), so that a cluster file that
 * tries to carry one is refused at the boundary and rendered output can be checked for them. A finding
 * never repeats the value: messages show at most its first characters.
 */

export interface SecretFinding {
  /** Field path in the data, e.g. ['relay', 'port'], safe to print: a key that is itself a secret is masked. */
  readonly path: readonly (string | number)[];
  /** The path as it is in the data, to redact it; never print it. */
  readonly rawPath: readonly (string | number)[];
  /** What it looks like, e.g. `looks like a GitHub token (ghp_…)`. */
  readonly reason: string;
  /** `value`: the value itself looks like a secret; `key-name`: a field named like one (token, password) holds a value. */
  readonly by: 'value' | 'key-name';
}

const PATTERNS: readonly [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
  [/\bBearer\s+(?!\$)[A-Za-z0-9._~+/-]{6,}=*/i, 'a bearer token'],
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/, 'a GitHub token'],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\./, 'a JSON Web Token'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i, 'a URL with a password in it'],
];

/** Long runs of token characters; a run is a secret when it is also high-entropy and mixes character classes. */
const TOKEN_RUN = /[A-Za-z0-9_+=-]{32,}/g;
const MIN_ENTROPY_BITS_PER_CHAR = 4.2;

/** Key names that only a secret value would have (tokenSecretKey names a key, it holds no secret). */
const SECRET_KEY_NAME = /^(?!tokenSecretKey$).*(token|passw(or)?d|apikey|api_key|bearer|credential|private_?key|client_?secret)/i;

/** Why `text` looks like a secret value, or undefined. */
export function secretLikeReason(text: string): string | undefined {
  for (const [pattern, what] of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return `looks like ${what} (${mask(match[0])})`;
  }
  for (const run of text.match(TOKEN_RUN) ?? []) {
    if (characterClasses(run) >= 3 && shannonEntropy(run) >= MIN_ENTROPY_BITS_PER_CHAR) {
      return `looks like a token: a ${run.length}-character high-entropy string (${mask(run)})`;
    }
  }
  return undefined;
}

/** Every string value (and every key name) in `data` that looks like a secret. */
export function findSecretLikeValues(data: unknown, path: readonly (string | number)[] = [], seen = new Set<object>()): SecretFinding[] {
  // YAML aliases can make the data cyclic (`relay: &r {<<: *r}`): visit every object once.
  if (typeof data === 'object' && data !== null) {
    if (seen.has(data)) return [];
    seen.add(data);
  }
  if (typeof data === 'string') {
    const reason = secretLikeReason(data);
    return reason ? [{ path, rawPath: path, reason, by: 'value' }] : [];
  }
  if (Array.isArray(data)) return data.flatMap((item, i) => findSecretLikeValues(item, [...path, i], seen));
  if (typeof data === 'object' && data !== null) {
    return Object.entries(data).flatMap(([key, value]) => {
      const keyReason = secretLikeReason(key);
      // The path names the key masked: printing it whole would print the secret.
      if (keyReason) return [{ path: [...path, mask(key)], rawPath: [...path, key], reason: `the key name ${keyReason}`, by: 'value' }];
      const inValue = findSecretLikeValues(value, [...path, key], seen);
      if (inValue.length === 0 && SECRET_KEY_NAME.test(key) && typeof value === 'string' && value !== '') {
        return [{ path: [...path, key], rawPath: [...path, key], reason: `a field named ${JSON.stringify(key)} holds a value`, by: 'key-name' as const }];
      }
      return inValue;
    });
  }
  return [];
}

/**
 * A copy of `data` with every secret-looking value replaced by `[redacted]`, so that no later message can
 * echo it, and the findings.
 */
export function redactSecretLikeValues(data: unknown): { data: unknown; findings: SecretFinding[] } {
  const findings = findSecretLikeValues(data);
  if (findings.length === 0) return { data, findings };
  const copy = structuredClone(data) as Record<string | number, unknown>;
  for (const { path, rawPath } of findings) {
    if (rawPath.length === 0) return { data: '[redacted]', findings };
    let node: Record<string | number, unknown> = copy;
    for (const key of rawPath.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
    const last = rawPath[rawPath.length - 1]!;
    // A secret in a key name: drop the entry, so that no message names the key.
    if (path[path.length - 1] !== last) delete node[last];
    else node[last] = '[redacted]';
  }
  return { data: copy, findings };
}

/** The first 4 characters and the length: enough to find the value, not enough to use it. */
export function mask(value: string): string {
  return `${value.slice(0, 4)}… ${value.length} characters`;
}

function characterClasses(text: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(text)).length;
}

export function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
