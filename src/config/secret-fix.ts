/** What a message about a secret found in a cluster file tells the user to do: where that secret belongs instead. */
import { tokenVariables } from '../forges';
import { isRecord } from '../is-record';
import { SECRET_KEY } from './names';

const NEVER = 'a cluster file never carries secrets';
/** The Secrets the notifications engines substitute `$key` from. */
const NOTIFICATION_SECRETS = {
  rollouts: 'argo-rollouts-notification-secret',
  argocd: 'argocd-notifications-secret',
} as const;
const BOTH_SECRETS = `${NOTIFICATION_SECRETS.rollouts}, ${NOTIFICATION_SECRETS.argocd}`;

/**
 * The fix for a secret at `path` of `data`; `data` must be the redacted copy, so that no part of the secret (a
 * relay.tokenSecretKey that is itself a token) is printed back.
 */
export function secretFix(data: unknown, path: readonly PropertyKey[]): string {
  const [section, field, key] = path;
  if (section === 'gitops' && field === 'repo')
    return (
      `${NEVER}: remove the credentials from gitops.repo and set the git host's token in the environment ` +
      `(${tokenVariables()}) instead; glidepath sends it as a header`
    );
  if (
    (section === 'rollouts' || section === 'argocd') &&
    field === 'extraData' &&
    typeof key === 'string' &&
    key.startsWith('service.webhook.')
  )
    return (
      `${NEVER}: put the value in the notifications Secret ${NOTIFICATION_SECRETS[section]} under a key of your ` +
      "choice and write $name (that key) in the webhook instead; the engine substitutes the Secret's value"
    );
  if (section === 'relay' && field === 'tokenSecretKey' && path.length === 2)
    return (
      `${NEVER}: relay.tokenSecretKey names the key of the relay token in the notifications Secrets ` +
      `(${BOTH_SECRETS}), not the token: set it to a key name such as glidepath-relay-token and put the token ` +
      'in the Secrets under that key'
    );
  if (section === 'gitops')
    return `${NEVER}: remove it; a git host's token goes in the environment (${tokenVariables()}), never in gitops.*`;
  if (section === 'relay' || section === 'rollouts' || section === 'argocd')
    return (
      `${NEVER}: put the relay token in the notifications Secrets (${BOTH_SECRETS}) ` +
      `under the key ${relayTokenKey(data)} (relay.tokenSecretKey)`
    );
  return (
    `${NEVER}: remove it; the relay token goes in the notifications Secrets (${BOTH_SECRETS}) under the key ` +
    `${relayTokenKey(data)}, a git host's token in the environment (${tokenVariables()})`
  );
}

function relayTokenKey(data: unknown): string {
  const relay = isRecord(data) && isRecord(data.relay) ? data.relay : {};
  return typeof relay.tokenSecretKey === 'string' && SECRET_KEY.test(relay.tokenSecretKey)
    ? relay.tokenSecretKey
    : 'glidepath-relay-token';
}
