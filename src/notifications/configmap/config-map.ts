/**
 * Reads a RENDERED notifications ConfigMap the way notifications-engine does (pkg/api/config.go): every key
 * parsed, every expression and template compiled. As in the engine, one bad key fails the whole config.
 */
import { parseAllDocuments, parseDocument } from 'yaml';
import { parseExpr } from '../expr/parse';
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
import { conditionKey } from '../engine-facts';
import { isRecord } from '../../is-record';
import { duplicateKeyOffsets } from '../../config/parse-cluster-yaml';

/** What the engine refuses at load: the controller then loads no config at all. */
export class ConfigLoadError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`the engine would reject this config (no notification at all would be sent):\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigLoadError';
  }
}

/** The named ConfigMap from a (multi-document) YAML file, e.g. a chart's `dist/<cluster>/*.k8s.yaml`. */
export function loadConfigMapYaml(yamlText: string, configMapName: string): LoadedConfig {
  return loadConfigData(configMapData(yamlText, configMapName));
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

export function loadConfigData(data: Readonly<Record<string, string>>): LoadedConfig {
  const problems: string[] = [];
  const attempt = <T>(key: string, read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      problems.push(`${key}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };
  const services = new Map<string, LoadedService>();
  const templates = new Map<string, LoadedTemplate>();
  const triggers = new Map<string, readonly LoadedCondition[]>();
  let subscriptions: LoadedSubscription[] = [];
  let defaultTriggers: string[] = [];
  let context: Record<string, string> = {};

  for (const [key, value] of Object.entries(data)) {
    if (key.startsWith('service.')) {
      const [, type, name = type, extra] = key.split('.');
      if (extra !== undefined) problems.push(`${key}: invalid service key; expected 'service.<type>(.<name>)'`);
      else attempt(key, () => services.set(name!, readService(name!, type!, value)));
    } else if (key.startsWith('template.')) {
      const name = key.slice('template.'.length);
      attempt(key, () => templates.set(name, readTemplate(name, parseYaml(value))));
    } else if (key.startsWith('trigger.')) {
      const name = key.slice('trigger.'.length);
      attempt(key, () => triggers.set(name, readTrigger(parseYaml(value))));
    } else if (key === 'subscriptions') {
      subscriptions = attempt(key, () => readSubscriptions(parseYaml(value))) ?? [];
    } else if (key === 'defaultTriggers') {
      defaultTriggers = attempt(key, () => stringList(parseYaml(value), 'defaultTriggers')) ?? [];
    } else if (key === 'context') {
      context = attempt(key, () => stringMap(parseYaml(value))) ?? {};
    }
  }
  if (problems.length > 0) throw new ConfigLoadError(problems);
  return { services, templates, triggers, subscriptions, defaultTriggers, context };
}

/**
 * One ConfigMap value read as YAML, a repeated key refused as the yaml library's `parse` refuses it, but checked in
 * one pass: that library compares each key with every earlier one, and a `context` of 60,000 keys took 46 s.
 */
function parseYaml(text: string): unknown {
  const document = parseDocument(text, { uniqueKeys: false, logLevel: 'error' });
  const [error] = document.errors;
  if (error !== undefined) throw error;
  if (duplicateKeyOffsets(document).length > 0) throw new Error('Map keys must be unique');
  return document.toJS();
}

function readService(name: string, type: string, text: string): LoadedService {
  const secretReferences = [...new Set(text.match(/\$[\w-]+/g) ?? [])].map((reference) => reference.slice(1));
  if (type !== 'webhook') return { name, type, url: '', headers: [], secretReferences };
  const service = record(parseYaml(text) ?? {}, 'service');
  if (typeof service.url !== 'string') throw new Error('url must be a string');
  const headers = (service.headers === undefined ? [] : array(service.headers, 'headers')).map((header, i) => {
    const entry = record(header, `headers[${i}]`);
    if (typeof entry.name !== 'string' || typeof entry.value !== 'string')
      throw new Error(`headers[${i}] needs string name and value`);
    return { name: entry.name, value: entry.value };
  });
  return { name, type, url: service.url, headers, secretReferences };
}

function readTemplate(name: string, raw: unknown): LoadedTemplate {
  const template = record(raw, 'template');
  const webhook: Record<string, LoadedWebhookRequest> = {};
  for (const [service, request] of Object.entries(
    template.webhook === undefined ? {} : record(template.webhook, 'webhook'),
  )) {
    const entry = record(request, `webhook.${service}`);
    webhook[service] = {
      ...(entry.method === undefined ? {} : { method: String(entry.method) }),
      ...(entry.path === undefined ? {} : { path: String(entry.path) }),
      ...(entry.body === undefined
        ? {}
        : { body: GoTemplate.parse(`${name}.webhook.${service}.body`, String(entry.body)) }),
    };
  }
  return {
    name,
    ...(typeof template.message === 'string' ? { message: GoTemplate.parse(`${name}.message`, template.message) } : {}),
    webhook,
  };
}

function readTrigger(raw: unknown): LoadedCondition[] {
  return array(raw, 'trigger').map((item, index) => {
    const condition = record(item, `[${index}]`);
    const whenText = condition.when === undefined || condition.when === '' ? 'false' : String(condition.when);
    const oncePerText =
      condition.oncePer === undefined || condition.oncePer === '' ? undefined : String(condition.oncePer);
    return {
      index,
      key: conditionKey(index, String(condition.when ?? '')),
      whenText,
      when: parseExpr(whenText),
      ...(oncePerText === undefined ? {} : { oncePerText, oncePer: parseExpr(oncePerText) }),
      send: condition.send === undefined ? [] : stringList(condition.send, `[${index}].send`),
    };
  });
}

function readSubscriptions(raw: unknown): LoadedSubscription[] {
  return array(raw, 'subscriptions').map((item, i) => {
    const subscription = record(item, `[${i}]`);
    const selectorText = subscription.selector === undefined ? '' : String(subscription.selector);
    return {
      recipients: stringList(subscription.recipients ?? [], `[${i}].recipients`),
      triggers: stringList(subscription.triggers ?? [], `[${i}].triggers`),
      selectorText,
      matches: parseLabelSelector(selectorText),
    };
  });
}

function isList(value: unknown): value is { items: unknown[] } {
  return isRecord(value) && value.kind === 'List' && Array.isArray(value.items);
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) throw new Error(`${what} must be a map`);
  return value;
}

function array(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} must be a list`);
  return value;
}

function stringList(value: unknown, what: string): string[] {
  return array(value, what).map((item) => String(item));
}

function stringMap(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(record(value ?? {}, 'context')).map(([key, item]) => [key, String(item)]));
}
