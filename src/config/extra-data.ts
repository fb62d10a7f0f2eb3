/**
 * `rollouts.extraData` and `argocd.extraData`: a team's own notification keys, merged into glidepath's ConfigMap.
 * Each value is checked the way the engine reads it, so that a team's typo never makes the engine refuse the whole
 * ConfigMap (and with it every Glidepath fact). A problem's `params.line` is the line inside the value.
 */
import { parse } from 'yaml';
import * as z from 'zod';
import { findSecretLikeValues, REDACTED } from './secret-values';

/** What the notifications engine refuses in a team's key; `line` is 1-based inside the value. */
export interface ExtraDataRefusal {
  readonly key: string;
  readonly line?: number;
  readonly message: string;
}

/**
 * How the engine reads a team's keys: src/notifications/ knows that, config does not, so the schema is handed it
 * (src/clusters.ts). It refuses only what every engine version refuses: the release is checked beside this field.
 */
export type ExtraDataCheck = (
  engine: 'rollouts' | 'argocd',
  data: Readonly<Record<string, string>>,
) => readonly ExtraDataRefusal[];

/** `$key` or `$key` inside text: the engine substitutes it from the notifications Secret. */
const SECRET_REFERENCE = /\$[\w-]+/;

export function extraDataSchema(engine: 'rollouts' | 'argocd', checkExtraData: ExtraDataCheck) {
  return z
    .record(
      z.string(),
      z.string({ error: 'must be the text of the ConfigMap value (use a YAML block scalar: key: |)' }),
    )
    .superRefine((raw, ctx) => {
      // A value the loader redacted as a secret is reported already: checking '[redacted]' would only add noise.
      const data = Object.fromEntries(Object.entries(raw).filter(([, text]) => text !== REDACTED));
      for (const problem of checkExtraData(engine, data)) {
        ctx.addIssue({
          code: 'custom',
          path: [problem.key],
          message: problem.message,
          ...(problem.line !== undefined ? { params: { line: problem.line } } : {}),
        });
      }
      for (const [key, text] of Object.entries(data)) {
        const service = key.startsWith('service.');
        // Only an escape (`\u0047`, `\x47`, a `\` that joins lines) makes the engine read a string the text does
        // not hold: folding adds spaces, which split a token rather than make one.
        const escaped = text.includes('\\');
        if (!service && !escaped) continue;
        let value: unknown;
        try {
          value = parse(text, { version: '1.1', logLevel: 'error' });
        } catch {
          continue; // reported as invalid YAML
        }
        const findings = [
          ...(escaped ? escapedSecrets(text, value) : []),
          ...(service ? literalServiceSecrets(value) : []),
        ];
        for (const finding of findings) ctx.addIssue({ code: 'custom', path: [key], message: finding });
      }
    })
    .default({});
}

/**
 * A secret that the value's text hides from the loader's scan of the file, written with YAML escapes (`\u0047`) or
 * folded over lines: the engine reads the string decoded, so it is checked decoded. A finding whose string stands
 * in the text as it is was refused by that scan already.
 */
function escapedSecrets(text: string, value: unknown): string[] {
  return findSecretLikeValues(value)
    .filter((finding) => finding.by === 'value')
    .filter((finding) => {
      const found = valueAt(value, finding.rawPath);
      const shown = typeof found === 'string' ? found : String(finding.rawPath.at(-1));
      return !text.includes(shown);
    })
    .map(
      (finding) =>
        `${finding.path.join('.') || '(value)'}: ${finding.reason}, as the engine reads the value (YAML escapes ` +
        'decoded); put it in the notifications Secret and write $<key> here',
    );
}

/**
 * A service setting named like a secret (token, password, ...) that holds a literal: the value itself must live in
 * the notifications Secret and be referenced as `$key`. Values that look like secrets anywhere are refused by the
 * loader already.
 */
function literalServiceSecrets(service: unknown): string[] {
  const named = findSecretLikeValues(service)
    .filter((finding) => finding.by === 'key-name')
    .filter((finding) => !SECRET_REFERENCE.test(String(valueAt(service, finding.rawPath))))
    .map(
      (finding) =>
        `${finding.path.join('.')}: ${finding.reason}; put it in the notifications Secret and write $<key> here`,
    );
  const headers = (service as { headers?: unknown } | null)?.headers;
  const literalAuth = (Array.isArray(headers) ? headers : []).flatMap((header: unknown, i) => {
    const { name, value } = (header ?? {}) as { name?: unknown; value?: unknown };
    const isAuth = typeof name === 'string' && /^(authorization|proxy-authorization)$/i.test(name);
    return isAuth && typeof value === 'string' && !SECRET_REFERENCE.test(value)
      ? [
          `headers[${i}]: the ${name} header holds a literal; put the credential in the notifications Secret ` +
            `and write $<key> here`,
        ]
      : [];
  });
  return [...named, ...literalAuth];
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], data);
}
