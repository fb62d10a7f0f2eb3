/**
 * A team's own webhook (`extraData` `service.webhook.*`) may reference keys of the notifications Secret in its
 * headers (`$key`): the engine replaces each with the Secret's value and sends it to the webhook's URL. Sending the
 * relay's token anywhere but the relay, or any Secret over plain http, is likely a mistake: the load warns.
 */
import { parse } from 'yaml';
import { isRecord } from '../is-record';
import type { ClusterConfig } from './schema';
import { excerpt } from './shown-input';

const SECRET_REFERENCE = /\$[\w-]+/g;

/** The warnings for one cluster's extraData webhooks, as `file: field: message`. */
export function secretReferencesSentElsewhere(file: string, config: ClusterConfig): string[] {
  const relay = (config.relay.host ?? config.relay.ip ?? '').toLowerCase();
  const relayToken = `$${config.relay.tokenSecretKey}`;
  const engines = [
    ['rollouts', config.rollouts.extraData],
    ['argocd', config.argocd.extraData],
  ] as const;
  return engines.flatMap(([engine, extraData]) =>
    Object.entries(extraData)
      .filter(([key]) => key.startsWith('service.webhook.'))
      .flatMap(([key, text]) => {
        let service: unknown;
        try {
          service = parse(text, { version: '1.1', logLevel: 'silent' });
        } catch {
          return []; // extraData's own check reports it
        }
        if (!isRecord(service) || !Array.isArray(service.headers)) return [];
        const url = typeof service.url === 'string' ? service.url : '';
        const host = hostOf(url);
        if (host === relay) return [];
        const plainHttp = /^http:\/\//i.test(url);
        return service.headers.flatMap((header: unknown, i) => {
          const value = isRecord(header) && typeof header.value === 'string' ? header.value : '';
          const references = [...new Set(value.match(SECRET_REFERENCE) ?? [])].filter(
            (ref) => ref === relayToken || plainHttp,
          );
          return references.map((ref) => {
            const what = ref === relayToken ? `the relay's token (${ref})` : `the Secret key ${ref} over plain http`;
            const where = host === undefined ? `the URL ${excerpt(url)}` : `${host}, which is not the relay (${relay})`;
            return (
              `${file}: ${engine}.extraData[${JSON.stringify(key)}]: headers[${i}] sends ${what} to ${where}; ` +
              `the engine puts the Secret's value there: make sure that host should receive ` +
              `it${ref === relayToken ? '' : ', over https'}`
            );
          });
        });
      }),
  );
}

/** The host of a URL, lower case and without IPv6 brackets, or undefined (a template, no URL). */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  } catch {
    return undefined;
  }
}
