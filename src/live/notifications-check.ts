/** The notifications ConfigMaps and their Secrets: owned as the delivery says, holding what the render holds. */
import { parse as parseYaml } from 'yaml';
import type { LiveCheckInput } from './check-input';
import { chartConfigMapFindings, missingChartConfigMap } from './chart-configmap';
import type { ExpectedNotifications } from './expected';
import { ok, problem, type Finding } from './findings';
import type { Kubectl } from './kubectl';
import { unreadable } from './live-objects';
import { describeOwner, ownerOf, type Owner } from './owner';

export async function checkConfigMap(
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
        `remove the ConfigMap from ${owner.argocdApplication}'s source, so that only ${application} syncs it ` +
          `(two Applications raise SharedResourceWarning and flap)`,
      ),
    );
  } else if (!owner.glidepath && !owner.argocdApplication && Object.keys(live).length === 0) {
    // A stock install's empty ConfigMap: nothing of it is lost when the first sync replaces it.
    findings.push(ok(subject, `${describeOwner(owner)}, and holds no keys: the first sync of ${application} fills it`));
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

export async function checkSecret(kubectl: Kubectl, expected: ExpectedNotifications): Promise<Finding[]> {
  const subject = `Secret ${expected.namespace}/${expected.secret}`;
  const result = await kubectl.secretKeys(expected.secret, expected.namespace);
  // From files, never a literal: a token on a command line lands in the shell's history and in ps.
  const create =
    `kubectl -n ${expected.namespace} create secret generic ${expected.secret} ` +
    `${expected.secretKeys.map((k) => `--from-file=${k}=<a file holding the token>`).join(' ')}`;
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
        `kubectl -n ${expected.namespace} patch secret ${expected.secret} --type merge --patch-file ` +
          `<a file holding {"stringData":{"${key}":"<token>"}}>`,
      );
    if (length === 0) return problem(subject, `key ${key} is empty`, `put the relay token under ${key}`);
    return ok(subject, `holds ${key} (value not read)`);
  });
  return findings;
}
