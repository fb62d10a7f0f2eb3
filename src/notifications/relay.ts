/** Glidepath's relay as a webhook service: shared by the Argo Rollouts and Argo CD notification configs. */
import type { ClusterConfig } from '../config/schema';
import type { WebhookService } from './config/types';

/** The service name every relay-bound template and subscription refers to. */
export const RELAY_SERVICE = 'glidepath-relay';

export function relayUrl(relay: ClusterConfig['relay']): string {
  const host = relay.ip !== undefined ? (relay.ip.includes(':') ? `[${relay.ip}]` : relay.ip) : relay.host;
  if (host === undefined) throw new Error('relay has neither ip nor host (the schema should have refused it)');
  return `${relay.scheme}://${host}:${relay.port}${relay.path}`;
}

/** POSTs land at the relay URL; the bearer token stays in the notifications Secret (`$key` is substituted). */
export function relayWebhookService(relay: ClusterConfig['relay']): WebhookService {
  return {
    type: 'webhook',
    url: relayUrl(relay),
    headers: [
      { name: 'Authorization', value: `Bearer $${relay.tokenSecretKey}` },
      { name: 'Content-Type', value: 'application/json' },
    ],
  };
}
