/**
 * A team's own ConfigMap keys beside glidepath's: merged into one ConfigMap (their subscriptions appended to
 * glidepath's), and told apart again for the checks that fit each.
 */
import { parse } from 'yaml';
import { NotificationsConfigError, yaml, type NotificationsConfig } from './define';

const SUBSCRIPTIONS = 'subscriptions';

/** Glidepath's data with the team's keys added; a key glidepath renders itself is refused. */
export function withExtraData(
  config: NotificationsConfig,
  extraData: Readonly<Record<string, string>>,
): NotificationsConfig {
  const data: Record<string, string> = { ...config.data };
  const clashes = Object.keys(extraData).filter((key) => key !== SUBSCRIPTIONS && key in data);
  if (clashes.length > 0) {
    throw new NotificationsConfigError(
      `extraData sets keys that glidepath renders itself: ${clashes.join(', ')}; rename them`,
    );
  }
  for (const [key, text] of Object.entries(extraData)) {
    data[key] = key === SUBSCRIPTIONS ? yaml([...subscriptionList(data[key]), ...subscriptionList(text)]) : text;
  }
  return { data };
}

/**
 * The part of a rendered ConfigMap's data that glidepath wrote, and the part that came from the team's `extraData`
 * (its keys, and its subscriptions at the end of the list).
 */
export function splitOwnedData(
  data: Readonly<Record<string, string>>,
  extraData: Readonly<Record<string, string>>,
): { glidepath: Record<string, string>; team: Record<string, string> } {
  const glidepath: Record<string, string> = {};
  const team: Record<string, string> = {};
  for (const [key, text] of Object.entries(data)) {
    if (key !== SUBSCRIPTIONS || extraData[SUBSCRIPTIONS] === undefined) {
      (key in extraData ? team : glidepath)[key] = text;
      continue;
    }
    let list: unknown[];
    try {
      list = subscriptionList(text);
    } catch {
      glidepath[key] = text; // not YAML: the engine-accepts check reports it
      continue;
    }
    const theirs = subscriptionList(extraData[SUBSCRIPTIONS]).length;
    const ours = list.slice(0, Math.max(0, list.length - theirs));
    if (ours.length > 0) glidepath[key] = yaml(ours);
    team[key] = yaml(list.slice(ours.length));
  }
  return { glidepath, team };
}

function subscriptionList(text: string | undefined): unknown[] {
  if (text === undefined) return [];
  const list: unknown = parse(text, { version: '1.1', logLevel: 'error' });
  return Array.isArray(list) ? list : [];
}
