/**
 * Secrets: rendered output only ever *references* secrets (`$key` in webhook headers, Secret names in
 * secretRef/secretKeyRef); it never holds one. Messages name the field and show at most a masked prefix.
 */
import { parse } from 'yaml';
import { percentDecoded } from '../config/percent-decoded';
import { mask, secretLikeReason } from '../config/secret-values';
import { isSecretEnvName, MIN_KNOWN_SECRET_LENGTH } from '../config/environment-secrets';
import {
  asArray,
  objectRef,
  Tally,
  type FamilyReport,
  type Manifest,
  type RenderedObject,
  type VerifyContext,
} from './types';
import { isRecord } from '../is-record';

/** The engine replaces `$key` in a header value with that key of the notifications Secret. */
const SECRET_REFERENCE = /\$[\w-]+/;

export function checkSecrets(objects: readonly RenderedObject[], context: VerifyContext): FamilyReport {
  const tally = new Tally('secrets');
  const known = (context.knownSecrets ?? []).filter((value) => value.length >= MIN_KNOWN_SECRET_LENGTH);
  // A cluster repeats its strings (the same image, labels and args in every namespace's objects): each is judged once.
  const reasons = new Map<string, string | undefined>();
  const reasonOf = (text: string): string | undefined => {
    if (!reasons.has(text)) reasons.set(text, secretLikeReason(text));
    return reasons.get(text);
  };
  for (const { manifest } of objects) {
    const ref = objectRef(manifest);
    tally.check(ref, 'no-secret-objects', () =>
      manifest.kind === 'Secret'
        ? {
            message: 'a Secret is rendered, so its values would be committed to the gitops repo',
            fix: 'create the Secret in the cluster (kubectl or a secret manager) and render only references to it',
          }
        : undefined,
    );
    const strings = stringsOf(manifest);
    tally.checkEach(ref, 'no-secret-values', () =>
      strings.flatMap(({ path, text }) => {
        const reason = reasonOf(text);
        return reason ? [{ message: `${path} ${reason}`, fix: secretFix(context) }] : [];
      }),
    );
    tally.checkEach(ref, 'no-known-secrets', () =>
      strings.flatMap(({ path, text }) =>
        known
          .filter((secret) => text.includes(secret) || percentDecoded(text).includes(secret))
          .map((secret) => ({
            message: `${path} contains the value of a secret from the environment (${mask(secret)})`,
            fix: 'never pass a token into rendering; reference the Secret key instead',
          })),
      ),
    );
    tally.checkEach(ref, 'env-literals', () => literalSecretEnv(manifest));
    if (manifest.kind === 'ConfigMap' && isRecord(manifest.data)) {
      tally.checkEach(ref, 'webhook-token-reference', () =>
        webhookHeaderProblems(manifest.data as Record<string, unknown>, context),
      );
    }
  }
  return tally.report();
}

function secretFix(context: VerifyContext): string {
  return (
    `render only a reference: the token lives in the notifications Secret under the key ` +
    `${context.config.relay.tokenSecretKey} (relay.tokenSecretKey) and headers use ` +
    `$${context.config.relay.tokenSecretKey}`
  );
}

/** Every string in the manifest (values and keys), with its field path. */
export function stringsOf(node: unknown, path = ''): { path: string; text: string }[] {
  if (typeof node === 'string') return [{ path: path || '(value)', text: node }];
  if (Array.isArray(node)) return node.flatMap((item, i) => stringsOf(item, `${path}[${i}]`));
  if (isRecord(node)) {
    return Object.entries(node).flatMap(([key, value]) => {
      const at =
        path === '' ? key : /^[A-Za-z_][\w-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
      return [{ path: `${at} (key)`, text: key }, ...stringsOf(value, at)];
    });
  }
  return [];
}

function literalSecretEnv(manifest: Manifest): { message: string; fix: string }[] {
  const problems: { message: string; fix: string }[] = [];
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${path}[${i}]`));
    if (!isRecord(node)) return;
    if (Array.isArray(node.env) && (typeof node.image === 'string' || Array.isArray(node.command))) {
      asArray(node.env).forEach((env, i) => {
        if (
          isRecord(env) &&
          typeof env.name === 'string' &&
          isSecretEnvName(env.name) &&
          typeof env.value === 'string' &&
          env.value !== ''
        ) {
          problems.push({
            message: `${path}.env[${i}] ${env.name} has a literal value`,
            fix: `use valueFrom.secretKeyRef (or envFrom.secretRef) for ${env.name}`,
          });
        }
      });
    }
    for (const [key, value] of Object.entries(node)) walk(value, path === '' ? key : `${path}.${key}`);
  };
  walk(manifest, '');
  return problems;
}

/**
 * `service.webhook.<name>` headers: glidepath's Authorization header must be `Bearer $<relay.tokenSecretKey>`; a
 * team's own webhook (extraData) may use any `$key` reference, never a literal.
 */
function webhookHeaderProblems(
  data: Record<string, unknown>,
  context: VerifyContext,
): { message: string; fix: string }[] {
  const expected = `Bearer $${context.config.relay.tokenSecretKey}`;
  const teamKeys = new Set([
    ...Object.keys(context.config.rollouts.extraData),
    ...Object.keys(context.config.argocd.extraData),
  ]);
  const problems: { message: string; fix: string }[] = [];
  for (const [key, text] of Object.entries(data)) {
    if (!key.startsWith('service.webhook.') || typeof text !== 'string') continue;
    let service: unknown;
    try {
      service = parse(text);
    } catch {
      continue; // the notification lint reports YAML that does not parse
    }
    asArray(isRecord(service) ? service.headers : undefined).forEach((header, i) => {
      if (!isRecord(header) || typeof header.name !== 'string') return;
      const value = typeof header.value === 'string' ? header.value : '';
      const isAuth = header.name.toLowerCase() === 'authorization' || /^bearer\b/i.test(value);
      if (!isAuth) return;
      if (teamKeys.has(key)) {
        // A team's own webhook (extraData): any Secret key will do, as long as it is a reference.
        if (!SECRET_REFERENCE.test(value)) {
          problems.push({
            message: `data[${JSON.stringify(key)}].headers[${i}] ${header.name} is a literal (${mask(value)})`,
            fix: 'put the token in the notifications Secret and write $<key> in the header',
          });
        }
      } else if (value !== expected) {
        problems.push({
          message:
            `data[${JSON.stringify(key)}].headers[${i}] ${header.name} is ` +
            `${SECRET_REFERENCE.test(value) ? JSON.stringify(value) : `a literal (${mask(value)})`}, expected ` +
            `"${expected}"`,
          fix:
            `reference the token as $${context.config.relay.tokenSecretKey}; the engine substitutes it from the ` +
            `notifications Secret`,
        });
      }
    });
  }
  return problems;
}
