/**
 * A team's own ConfigMap keys beside glidepath's: merged into one ConfigMap (their subscriptions appended to
 * glidepath's), and told apart again by name, since every glidepath name starts with `glidepath-`.
 */
import { parse } from 'yaml';
import { GLIDEPATH_NAME_PREFIX } from '../extra-data/engine-keys';
import { NotificationsConfigError, yaml, type NotificationsConfig } from './define';

const SUBSCRIPTIONS = 'subscriptions';

/** Glidepath's data with the team's keys added; a key glidepath renders itself is refused. */
export function withExtraData(config: NotificationsConfig, extraData: Readonly<Record<string, string>>): NotificationsConfig {
  const data: Record<string, string> = { ...config.data };
  const clashes = Object.keys(extraData).filter((key) => key !== SUBSCRIPTIONS && key in data);
  if (clashes.length > 0) {
    throw new NotificationsConfigError(`extraData sets keys that glidepath renders itself: ${clashes.join(', ')}; rename them`);
  }
  for (const [key, text] of Object.entries(extraData)) {
    data[key] = key === SUBSCRIPTIONS ? yaml([...subscriptionList(data[key]), ...subscriptionList(text)]) : text;
  }
  return { data };
}

/** Which of the two a key (or a subscription, by its recipients) belongs to. */
export function isGlidepathKey(key: string): boolean {
  if (key === 'context') return true;
  const parts = key.split('.');
  const name = parts[0] === 'service' ? (parts[2] ?? parts[1] ?? '') : parts.slice(1).join('.');
  return name.startsWith(GLIDEPATH_NAME_PREFIX);
}

/** The part of a rendered ConfigMap's data that glidepath wrote, or the part the team wrote. */
export function splitOwnedData(data: Readonly<Record<string, string>>): { glidepath: Record<string, string>; team: Record<string, string> } {
  const glidepath: Record<string, string> = {};
  const team: Record<string, string> = {};
  for (const [key, text] of Object.entries(data)) {
    if (key !== SUBSCRIPTIONS) {
      (isGlidepathKey(key) ? glidepath : team)[key] = text;
      continue;
    }
    let list: unknown[];
    try {
      list = subscriptionList(text);
    } catch {
      glidepath[key] = text; // not YAML: the engine-accepts check reports it
      continue;
    }
    const ours = list.filter(isGlidepathSubscription);
    const theirs = list.filter((entry) => !isGlidepathSubscription(entry));
    if (ours.length > 0) glidepath[key] = ours.length === list.length ? text : yaml(ours);
    if (theirs.length > 0) team[key] = yaml(theirs);
  }
  return { glidepath, team };
}

function isGlidepathSubscription(entry: unknown): boolean {
  const recipients = (entry as { recipients?: unknown } | null)?.recipients;
  return Array.isArray(recipients) && recipients.length > 0 && recipients.every((r) => typeof r === 'string' && r.startsWith(GLIDEPATH_NAME_PREFIX));
}

function subscriptionList(text: string | undefined): unknown[] {
  if (text === undefined) return [];
  const list: unknown = parse(text, { version: '1.1' });
  return Array.isArray(list) ? list : [];
}
