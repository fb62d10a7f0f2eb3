/**
 * Reads a notifications ConfigMap the way notifications-engine does (pkg/api/config.go), into the model the engine
 * simulation runs (model/loaded-config.ts). The one reader: what the engine refuses is what key-problems.ts finds
 * (each value read by read-value.ts, unmarshalled into the engine's Go types, every expression and template
 * compiled); as in the engine, one bad key fails the whole config.
 */
import { parseAllDocuments } from 'yaml';
import { parseExpr } from '../expr/parse';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, conditionKey, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../engine-facts';
import { GoTemplate } from '../model/go-template';
import type {
  LoadedCondition,
  LoadedConfig,
  LoadedService,
  LoadedSubscription,
  LoadedTemplate,
  LoadedWebhookRequest,
} from '../model/loaded-config';
import { parseLabelSelector } from '../../config/label-selector';
import { isRecord } from '../../is-record';
import type { NotificationsEngine } from './engine-keys';
import { fieldOf, knownEngineVersions } from './go-unmarshal';
import { configMapProblems } from './key-problems';
import { readKeys } from './read-key';

/** What the engine refuses at load: the controller then loads no config at all. */
export class ConfigLoadError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the engine would reject this config (no notification at all would be sent):\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigLoadError';
  }
}

const ENGINE_OF_CONFIGMAP: Readonly<Record<string, NotificationsEngine>> = {
  [ROLLOUTS_NOTIFICATION_CONFIGMAP]: 'rollouts',
  [ARGOCD_NOTIFICATIONS_CONFIGMAP]: 'argocd',
};

/** The named ConfigMap from a (multi-document) YAML file, e.g. a chart's `dist/<cluster>/*.k8s.yaml`. */
export function loadConfigMapYaml(yamlText: string, configMapName: string): LoadedConfig {
  const engine = ENGINE_OF_CONFIGMAP[configMapName];
  if (engine === undefined) throw new ConfigLoadError([`${configMapName} is the ConfigMap of no notifications engine`]);
  return loadConfigData(configMapData(yamlText, configMapName), engine);
}

/** The `data` of the ConfigMap named `configMapName` in a YAML text (a List's items included). */
export function configMapData(yamlText: string, configMapName: string): Readonly<Record<string, string>> {
  const documents = parseAllDocuments(yamlText).map((document) => document.toJS() as unknown);
  const objects = documents.flatMap((document) => (isList(document) ? document.items : [document]));
  const configMap = objects.find(
    (object): object is { data?: Record<string, string> } =>
      isRecord(object) &&
      object.kind === 'ConfigMap' &&
      isRecord(object.metadata) &&
      object.metadata.name === configMapName,
  );
  if (configMap === undefined) throw new ConfigLoadError([`no ConfigMap named ${configMapName} in the YAML`]);
  return configMap.data ?? {};
}

/**
 * The config `engine` loads from `data`. Refused only when every notifications-engine version glidepath knows
 * refuses it (the release that runs is verify's to check, on its own versions).
 */
export function loadConfigData(data: Readonly<Record<string, string>>, engine: NotificationsEngine): LoadedConfig {
  const reads = readKeys(engine, data, 'engine');
  const refusals = configMapProblems(engine, data, knownEngineVersions(), 'all', 'engine', reads).filter(
    (problem) => problem.severity !== 'warning',
  );
  if (refusals.length > 0)
    throw new ConfigLoadError(
      refusals.map((p) => `${p.key}: ${p.message}${p.line === undefined ? '' : ` (line ${p.line})`}`),
    );
  const services = new Map<string, LoadedService>();
  const templates = new Map<string, LoadedTemplate>();
  const triggers = new Map<string, readonly LoadedCondition[]>();
  let subscriptions: LoadedSubscription[] = [];
  let defaultTriggers: string[] = [];
  let context: Record<string, string> = {};
  for (const [key, text] of Object.entries(data)) {
    const read = reads.get(key)!;
    if (!('key' in read)) continue; // a key the engine skips: a refused one stopped the load above
    const classified = read.key;
    const value = read.parsed.value;
    switch (classified.kind) {
      case 'service':
        services.set(classified.name, readService(classified.name, classified.type, text, value));
        break;
      case 'template':
        templates.set(classified.name, readTemplate(classified.name, value));
        break;
      case 'trigger':
        triggers.set(classified.name, readTrigger(value));
        break;
      case 'subscriptions':
        subscriptions = readSubscriptions(value);
        break;
      case 'defaultTriggers':
        defaultTriggers = list(value).map(String);
        break;
      case 'context':
        context = Object.fromEntries(Object.entries(isRecord(value) ? value : {}).map(([k, v]) => [k, String(v)]));
        break;
      case 'serviceDefaultTriggers':
        break; // not modelled: glidepath's subscriptions name their triggers
    }
  }
  return { services, templates, triggers, subscriptions, defaultTriggers, context };
}

/** A value the engine has unmarshalled: a scalar where Go has a string field is its text. */
const text = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : value instanceof Date ? value.toISOString() : String(value);

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function readService(name: string, type: string, source: string, value: unknown): LoadedService {
  const secretReferences = [...new Set(source.match(/\$[\w-]+/g) ?? [])].map((reference) => reference.slice(1));
  if (type !== 'webhook') return { name, type, url: '', headers: [], secretReferences };
  const headers = list(fieldOf(value, 'headers')).map((header) => ({
    name: text(fieldOf(header, 'name')) ?? '',
    value: text(fieldOf(header, 'value')) ?? '',
  }));
  return { name, type, url: text(fieldOf(value, 'url')) ?? '', headers, secretReferences };
}

function readTemplate(name: string, value: unknown): LoadedTemplate {
  const webhook: Record<string, LoadedWebhookRequest> = {};
  const requests = fieldOf(value, 'webhook');
  for (const [service, request] of Object.entries(isRecord(requests) ? requests : {})) {
    const [method, path, body] = (['method', 'path', 'body'] as const).map((field) => text(fieldOf(request, field)));
    webhook[service] = {
      ...(method === undefined ? {} : { method }),
      ...(path === undefined ? {} : { path }),
      ...(body === undefined ? {} : { body: GoTemplate.parse(`${name}.webhook.${service}.body`, body) }),
    };
  }
  const message = text(fieldOf(value, 'message'));
  return { name, ...(message === undefined ? {} : { message: GoTemplate.parse(`${name}.message`, message) }), webhook };
}

function readTrigger(value: unknown): LoadedCondition[] {
  return list(value).map((condition, index) => {
    const when = text(fieldOf(condition, 'when')) ?? '';
    const oncePer = text(fieldOf(condition, 'oncePer')) ?? '';
    const whenText = when === '' ? 'false' : when;
    return {
      index,
      key: conditionKey(index, when),
      whenText,
      when: parseExpr(whenText),
      ...(oncePer === '' ? {} : { oncePerText: oncePer, oncePer: parseExpr(oncePer) }),
      send: list(fieldOf(condition, 'send')).map(String),
    };
  });
}

function readSubscriptions(value: unknown): LoadedSubscription[] {
  return list(value).map((subscription) => {
    const selectorText = text(fieldOf(subscription, 'selector')) ?? '';
    return {
      recipients: list(fieldOf(subscription, 'recipients')).map(String),
      triggers: list(fieldOf(subscription, 'triggers')).map(String),
      selectorText,
      matches: parseLabelSelector(selectorText),
    };
  });
}

function isList(value: unknown): value is { items: unknown[] } {
  return isRecord(value) && value.kind === 'List' && Array.isArray(value.items);
}
