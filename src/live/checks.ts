/** The checks of `npm run check-live`, each reading what it needs with kubectl (get only) and judging it. */
import { parse as parseYaml } from 'yaml';
import type { ClusterConfig } from '../config/schema';
import { RELEASE_ID_ANNOTATION, RELEASE_TRACKED_LABEL } from '../notifications/glidepath-fact';
import { NOTIFIED_ANNOTATION } from '../notifications/engine-facts';
import { compareReleases } from '../notifications/engine-versions';
import { declaredReleases, engineVersionProblems } from '../notifications/support/engine-support';
import { clusterGrowthBudget } from '../prune/growth-budget';
import type { RenderedFile } from '../render/render-cluster';
import { expectedNotifications, type ExpectedNotifications } from './expected';
import { ok, problem, type Finding } from './findings';
import type { Json, Kubectl, ReadResult } from './kubectl';
import { chartConfigMapFindings, missingChartConfigMap } from './chart-configmap';
import { describeOwner, ownerOf, type Owner } from './owner';

export interface LiveCheckInput {
  readonly config: ClusterConfig;
  readonly manifests: readonly RenderedFile[];
  readonly kubectl: Kubectl;
  /** The Argo CD Application that syncs glidepath's folder (docs/argocd/application.yaml: glidepath-<cluster>). */
  readonly application: string;
  /** The label keys Argo CD's label tracking may have written (default: DEFAULT_TRACKING_LABELS). */
  readonly trackingLabels?: readonly string[];
}

export async function checkLive(input: LiveCheckInput): Promise<Finding[]> {
  await input.kubectl.discover();
  const expected = expectedNotifications(input.config, input.manifests);
  const sections = await Promise.all([
    ...expected.map((e) => checkConfigMap(input, e)),
    ...expected.map((e) => checkSecret(input.kubectl, e)),
    checkControllers(input),
    checkTrackedRollouts(input),
    checkTrackedApplications(input),
    checkVeridor(input),
  ]);
  return sections.flat();
}

const TRACKED = `${RELEASE_TRACKED_LABEL}=true`;

function unreadable(subject: string, result: ReadResult<unknown>, fix: string): Finding | undefined {
  if (result.found || result.reason === undefined) return undefined;
  return problem(subject, `cannot be read: ${result.reason}`, fix);
}

async function checkConfigMap(
  { kubectl, application, trackingLabels }: LiveCheckInput,
  expected: ExpectedNotifications,
): Promise<Finding[]> {
  const subject = `ConfigMap ${expected.namespace}/${expected.configMap}`;
  const result = await kubectl.getJson('configmap', { name: expected.configMap, namespace: expected.namespace });
  const blocked = unreadable(
    subject,
    result,
    'grant your user get on configmaps there, or run with a --context that may',
  );
  if (blocked) return [blocked];
  const chartOwned = expected.delivery === 'helm-values';
  if (!result.found)
    return [
      chartOwned
        ? missingChartConfigMap(subject, expected)
        : ok(subject, `not there yet: the first sync of ${application} creates it`),
    ];
  const owner = ownerOf(result.value, trackingLabels);
  const live = (result.value.data ?? {}) as Record<string, string>;
  const findings = chartOwned
    ? chartConfigMapFindings(subject, result.value, owner, expected)
    : ownedConfigMapFindings(subject, owner, live, expected, application);
  if (expected.engine === 'Argo CD' && live.context !== undefined)
    findings.push(...compareContext(subject, live.context, expected.context));
  return findings;
}

/** configmap mode: glidepath's Application alone owns the ConfigMap, and a sync drops every key it does not render. */
function ownedConfigMapFindings(
  subject: string,
  owner: Owner,
  live: Record<string, string>,
  expected: ExpectedNotifications,
  application: string,
): Finding[] {
  const findings: Finding[] = [];
  if (owner.helmRelease) {
    findings.push(
      problem(
        subject,
        describeOwner(owner),
        `two owners overwrite each other's keys: ${expected.chartSwitch}, then let ${application} own the ConfigMap`,
      ),
    );
  } else if (owner.argocdApplication && owner.argocdApplication !== application) {
    findings.push(
      problem(
        subject,
        describeOwner(owner),
        `remove the ConfigMap from ${owner.argocdApplication}'s source, so that only ${application} syncs it (two Applications raise SharedResourceWarning and flap)`,
      ),
    );
  } else if (!owner.glidepath && !owner.argocdApplication) {
    findings.push(
      problem(
        subject,
        describeOwner(owner),
        `${application}'s first sync replaces it: carry every key you keep into the cluster file first`,
      ),
    );
  } else {
    findings.push(ok(subject, describeOwner(owner)));
  }
  const dropped = Object.keys(live)
    .filter((key) => !expected.dataKeys.includes(key))
    .sort();
  if (dropped.length > 0)
    findings.push(
      problem(
        subject,
        `holds keys the render does not: ${dropped.join(', ')}; a sync of ${application} removes them`,
        'copy what you keep into the cluster file, or keep those notifications in another ConfigMap',
      ),
    );
  return findings;
}

function compareContext(subject: string, liveText: string, rendered: Readonly<Record<string, string>>): Finding[] {
  let parsed: unknown;
  try {
    parsed = parseYaml(liveText);
  } catch {
    return [
      problem(
        subject,
        'its context is not valid YAML: the Argo CD notifications controller refuses the whole ConfigMap',
        'fix it, then copy it into argocd.context',
      ),
    ];
  }
  const live = Object.fromEntries(
    Object.entries(typeof parsed === 'object' && parsed !== null ? parsed : {}).map(([key, value]) => [
      key,
      String(value),
    ]),
  );
  const missing = Object.keys(live)
    .filter((key) => rendered[key] === undefined)
    .sort();
  const differs = Object.keys(live)
    .filter((key) => rendered[key] !== undefined && rendered[key] !== live[key])
    .sort();
  if (missing.length === 0 && differs.length === 0) return [];
  const what = [
    missing.length > 0 ? `not in argocd.context: ${missing.join(', ')}` : '',
    differs.length > 0 ? `different in argocd.context: ${differs.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return [
    problem(
      subject,
      `its context ${what}`,
      'copy the live context into argocd.context of the cluster file (kubectl get cm argocd-notifications-cm -o yaml)',
    ),
  ];
}

async function checkSecret(kubectl: Kubectl, expected: ExpectedNotifications): Promise<Finding[]> {
  const subject = `Secret ${expected.namespace}/${expected.secret}`;
  const result = await kubectl.secretKeys(expected.secret, expected.namespace);
  const create = `kubectl -n ${expected.namespace} create secret generic ${expected.secret} ${expected.secretKeys.map((k) => `--from-literal=${k}=<token>`).join(' ')}`;
  const blocked = unreadable(
    subject,
    result,
    'grant your user get on secrets there (only the keys are read), or run with a --context that may',
  );
  if (blocked) return [blocked];
  if (!result.found)
    return [
      problem(
        subject,
        `missing: ${expected.engine} sends the literal text $${expected.secretKeys[0]} as the token`,
        create,
      ),
    ];
  const findings = expected.secretKeys.map((key) => {
    const length = result.value.get(key);
    if (length === undefined)
      return problem(
        subject,
        `has no key ${key}: ${expected.engine} sends the literal text $${key}`,
        `kubectl -n ${expected.namespace} patch secret ${expected.secret} --type merge -p '{"stringData":{"${key}":"<token>"}}'`,
      );
    if (length === 0) return problem(subject, `key ${key} is empty`, `put the relay token under ${key}`);
    return ok(subject, `holds ${key} (value not read)`);
  });
  return findings;
}

async function checkControllers({ config, kubectl }: LiveCheckInput): Promise<Finding[]> {
  const [rollouts, argocd] = await Promise.all([
    kubectl.getJson('deployments', { namespace: config.rollouts.namespace }),
    kubectl.getJson('deployments', { namespace: config.argocd.namespace }),
  ]);
  return [
    controllerFinding(config, CONTROLLERS.rollouts, rollouts),
    controllerFinding(config, CONTROLLERS.argocd, argocd),
  ];
}

interface Controller {
  readonly what: string;
  readonly image: RegExp;
  readonly named: (deployment: string) => boolean;
  /** The cluster file field that declares its release. */
  readonly field: 'rollouts.controllerVersion' | 'argocd.version';
  readonly engine: 'rollouts' | 'argocd';
  readonly namespace: (config: ClusterConfig) => string;
  readonly declared: (config: ClusterConfig) => string | undefined;
  readonly withRelease: (config: ClusterConfig, release: string) => ClusterConfig;
}

const CONTROLLERS: Readonly<Record<'rollouts' | 'argocd', Controller>> = {
  rollouts: {
    what: 'Argo Rollouts controller',
    image: /\/argo-rollouts[:@]/,
    named: () => true,
    field: 'rollouts.controllerVersion',
    engine: 'rollouts',
    namespace: (config) => config.rollouts.namespace,
    declared: (config) => config.rollouts.controllerVersion,
    withRelease: (config, release) => ({ ...config, rollouts: { ...config.rollouts, controllerVersion: release } }),
  },
  argocd: {
    what: 'Argo CD notifications controller',
    image: /\/argocd[:@]/,
    named: (deployment) => deployment.endsWith('notifications-controller'),
    field: 'argocd.version',
    engine: 'argocd',
    namespace: (config) => config.argocd.namespace,
    declared: (config) => config.argocd.version,
    withRelease: (config, release) => ({ ...config, argocd: { ...config.argocd, version: release } }),
  },
};

/** The controller's release, read from its image, against what glidepath supports and what the cluster file says. */
function controllerFinding(config: ClusterConfig, controller: Controller, result: ReadResult<Json>): Finding {
  const subject = `${controller.what} in ${controller.namespace(config)}`;
  const blocked = unreadable(subject, result, 'grant your user list on deployments there');
  if (blocked) return blocked;
  const found = (result.found ? items(result.value) : []).flatMap(
    (deployment): { deployment: string; image: string }[] => {
      const name = String((deployment.metadata as Json | undefined)?.name ?? '');
      const containers = ((
        ((deployment.spec as Json | undefined)?.template as Json | undefined)?.spec as Json | undefined
      )?.containers ?? []) as { image?: string }[];
      return controller.named(name)
        ? containers
            .filter((c) => c.image !== undefined && controller.image.test(c.image))
            .map((c) => ({ deployment: name, image: c.image! }))
        : [];
    },
  );
  const assumed = declaredReleases(config)[controller.engine];
  if (found.length === 0) {
    return problem(
      subject,
      'not found (no Deployment runs its image here)',
      `check the namespace in the cluster file, or install it (the file assumes ${assumed}; see docs/engine-versions.md)`,
    );
  }
  const { deployment, image } = found[0]!;
  const version = /:v?(\d+\.\d+\.\d+)/.exec(image.split('@')[0]!.slice(image.lastIndexOf('/')))?.[1];
  if (version === undefined)
    return problem(
      subject,
      `Deployment ${deployment} runs ${image}, whose release cannot be read from the image`,
      `check that it is ${assumed} and set ${controller.field} to it`,
    );
  const unsupported = engineVersionProblems(controller.withRelease(config, version)).find(
    (p) => p.field === controller.field,
  );
  if (unsupported)
    return problem(
      subject,
      `Deployment ${deployment} runs ${version}: ${unsupported.message}`,
      'upgrade it (docs/engine-versions.md lists the supported releases)',
    );
  const declared = controller.declared(config);
  const runs = `Deployment ${deployment} runs ${version}`;
  if (declared === undefined)
    return ok(
      subject,
      `${runs}; ${controller.field} is unset, so glidepath renders for ${assumed}, which ${version} runs too`,
    );
  if (compareReleases(declared, version) > 0) {
    return problem(
      subject,
      `${runs}, older than ${controller.field} (${declared}): what glidepath renders for ${declared} may not compile on it`,
      `set ${controller.field}: "${version}" in the cluster file, or upgrade the controller`,
    );
  }
  return ok(
    subject,
    declared === version
      ? `${runs}, as ${controller.field} says`
      : `${runs}; ${controller.field} says ${declared} (older, so the render runs on it; set it to "${version}")`,
  );
}

async function checkTrackedRollouts({ config, kubectl }: LiveCheckInput): Promise<Finding[]> {
  const subject = `Rollouts labelled ${TRACKED}`;
  const result = await kubectl.getJson('rollouts.argoproj.io', { selector: TRACKED });
  const blocked = unreadable(
    subject,
    result,
    'install Argo Rollouts, or grant your user list on rollouts.argoproj.io in all namespaces',
  );
  if (blocked) return [blocked];
  const rollouts = result.found ? items(result.value) : [];
  if (rollouts.length === 0)
    return [
      problem(
        subject,
        'none: no Rollout will send a fact',
        `label the tracked Rollouts: kubectl -n <namespace> label rollout <name> ${TRACKED}`,
      ),
    ];
  const byNamespace = countBy(rollouts.map((r) => meta(r).namespace ?? ''));
  const findings = [ok(subject, `${rollouts.length} (${[...byNamespace].map(([ns, n]) => `${ns}: ${n}`).join(', ')})`)];
  const outside = [...byNamespace.keys()].filter((ns) => !config.tracked.namespaces.includes(ns));
  if (outside.length > 0)
    findings.push(
      problem(
        subject,
        `some are in namespaces outside tracked.namespaces: ${outside.join(', ')}; they get facts but the prune never strips their annotation`,
        'add those namespaces to tracked.namespaces',
      ),
    );
  const noRelease = rollouts.filter((r) => meta(r).annotations?.[RELEASE_ID_ANNOTATION] === undefined).map(nameOf);
  if (noRelease.length > 0)
    findings.push(
      problem(
        subject,
        `without the annotation ${RELEASE_ID_ANNOTATION} (their facts carry releaseId null): ${noRelease.join(', ')}`,
        `annotate them: kubectl -n <namespace> annotate rollout <name> ${RELEASE_ID_ANNOTATION}=<release>`,
      ),
    );
  const budget = clusterGrowthBudget(config);
  for (const rollout of rollouts) {
    const value = meta(rollout).annotations?.[NOTIFIED_ANNOTATION];
    const bytes = value === undefined ? 0 : Buffer.byteLength(value);
    const keys = value === undefined ? 0 : Object.keys(safeJson(value)).length;
    const detail = `${NOTIFIED_ANNOTATION}: ${keys} keys, ${bytes} bytes (worst case before a prune: ${budget.worstCaseKeys} keys, ${budget.worstCaseBytes} bytes)`;
    findings.push(
      keys > budget.worstCaseKeys
        ? problem(
            `Rollout ${nameOf(rollout)}`,
            detail,
            `the prune may not be running: kubectl -n ${config.prune.namespace} get cronjob glidepath-notified-prune, and the logs of its last Job`,
          )
        : ok(`Rollout ${nameOf(rollout)}`, detail),
    );
  }
  return findings;
}

async function checkTrackedApplications({ config, kubectl }: LiveCheckInput): Promise<Finding[]> {
  const subject = `Applications labelled ${TRACKED} in ${config.argocd.namespace}`;
  const result = await kubectl.getJson('applications.argoproj.io', {
    namespace: config.argocd.namespace,
    selector: TRACKED,
  });
  const blocked = unreadable(
    subject,
    result,
    'check argocd.namespace, or grant your user list on applications.argoproj.io there',
  );
  if (blocked) return [blocked];
  const applications = result.found ? items(result.value) : [];
  if (applications.length === 0)
    return [
      problem(
        subject,
        'none: no sync failure will send a fact',
        `label each tracked Application: kubectl -n ${config.argocd.namespace} label application <name> ${TRACKED}`,
      ),
    ];
  return [ok(subject, `${applications.length}: ${applications.map((a) => meta(a).name).join(', ')}`)];
}

async function checkVeridor({ config, kubectl }: LiveCheckInput): Promise<Finding[]> {
  const { configMap, secret } = config.veridor;
  const perNamespace = await Promise.all(
    config.veridor.namespaces.map(async (namespace) => {
      const [map, keys] = await Promise.all([
        kubectl.getJson('configmap', { name: configMap, namespace }),
        kubectl.secretKeys(secret, namespace),
      ]);
      const mapSubject = `ConfigMap ${namespace}/${configMap}`;
      const secretSubject = `Secret ${namespace}/${secret}`;
      const mapFinding =
        unreadable(mapSubject, map, 'grant your user get on configmaps there') ??
        (!map.found
          ? problem(
              mapSubject,
              'missing: the Veridor gate pod cannot start, and the canary aborts at the Job deadline',
              `kubectl -n ${namespace} create configmap ${configMap} --from-file=veridor.json`,
            )
          : ((map.value.data ?? {}) as Record<string, string>)['veridor.json'] === undefined
            ? problem(
                mapSubject,
                'has no key veridor.json',
                `kubectl -n ${namespace} create configmap ${configMap} --from-file=veridor.json --dry-run=client -o yaml | kubectl apply -f -`,
              )
            : ok(mapSubject, 'holds veridor.json'));
      const secretFinding =
        unreadable(secretSubject, keys, 'grant your user get on secrets there (only the keys are read)') ??
        (keys.found
          ? ok(secretSubject, `present (${keys.value.size} keys, values not read)`)
          : problem(
              secretSubject,
              'missing: the gate runs without Veridor credentials',
              `kubectl -n ${namespace} create secret generic ${secret} --from-literal=<KEY>=<value>`,
            ));
      return [mapFinding, secretFinding];
    }),
  );
  return perNamespace.flat();
}

function items(list: Json): Json[] {
  return Array.isArray(list.items) ? (list.items as Json[]) : [];
}

function meta(object: Json): { name?: string; namespace?: string; annotations?: Record<string, string> } {
  return (object.metadata ?? {}) as { name?: string; namespace?: string; annotations?: Record<string, string> };
}

function nameOf(object: Json): string {
  return `${meta(object).namespace}/${meta(object).name}`;
}

function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of [...values].sort()) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

function safeJson(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
