/**
 * RBAC: least privilege. No wildcard verb, resource or API group; no access to Secrets; no verbs that grant more
 * than they name (escalate, bind, impersonate); no binding to a built-in ClusterRole; and no cluster scope
 * (ClusterRole, ClusterRoleBinding) unless the cluster file asked for it (`prune.clusterScope: true`).
 */
import { asArray, objectRef, Tally, type FamilyReport, type RenderedObject, type VerifyContext } from './types';
import { isRecord } from '../is-record';

const ROLE_KINDS = new Set(['Role', 'ClusterRole']);
const CLUSTER_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding']);
const ESCALATING_VERBS = new Set(['escalate', 'bind', 'impersonate']);
/** Built-in ClusterRoles that grant far more than this tool needs. */
const BUILT_IN_ROLES = new Set(['cluster-admin', 'admin', 'edit', 'view']);

/** Whether the cluster file asked for cluster-wide RBAC (`prune.clusterScope`). */
export function clusterScopeRequested(context: VerifyContext): boolean {
  const prune: object = context.config.prune;
  return 'clusterScope' in prune && prune.clusterScope === true;
}

export function checkRbac(objects: readonly RenderedObject[], context: VerifyContext): FamilyReport {
  const tally = new Tally('rbac');
  const clusterScope = clusterScopeRequested(context);
  for (const { manifest } of objects) {
    const kind = String(manifest.kind);
    const isRbac =
      manifest.apiVersion === 'rbac.authorization.k8s.io/v1' || ROLE_KINDS.has(kind) || kind.endsWith('Binding');
    if (!isRbac) continue;
    const ref = objectRef(manifest);

    if (CLUSTER_KINDS.has(kind)) {
      tally.check(ref, 'cluster-scope', () =>
        clusterScope
          ? undefined
          : {
              message: `a ${kind} grants access in every namespace, and the cluster file did not ask for cluster scope`,
              fix:
                'render a Role and RoleBinding per tracked namespace, or set prune.clusterScope: true in the ' +
                'cluster file',
            },
      );
    }
    if (ROLE_KINDS.has(kind)) checkRules(tally, ref, asArray(manifest.rules));
    if (kind.endsWith('Binding')) {
      const roleRef = isRecord(manifest.roleRef) ? manifest.roleRef : {};
      tally.check(ref, 'built-in-role', () =>
        roleRef.kind === 'ClusterRole' &&
        typeof roleRef.name === 'string' &&
        (BUILT_IN_ROLES.has(roleRef.name) || roleRef.name.startsWith('system:'))
          ? {
              message: `roleRef is the built-in ClusterRole ${roleRef.name}`,
              fix: 'bind a Role of this tool that lists exactly the verbs and resources needed',
            }
          : undefined,
      );
    }
  }
  return tally.report();
}

function checkRules(tally: Tally, ref: string, rules: readonly unknown[]): void {
  rules.forEach((rule, i) => {
    const r = isRecord(rule) ? rule : {};
    const at = `rules[${i}]`;
    const verbs = asArray(r.verbs).map(String);
    const resources = asArray(r.resources).map(String);
    const groups = asArray(r.apiGroups).map(String);
    tally.checkEach(ref, 'no-wildcards', () => {
      const problems = [];
      if (verbs.includes('*'))
        problems.push({ message: `${at}.verbs has "*"`, fix: 'list the verbs, e.g. get, list, patch' });
      if (resources.some((res) => res === '*' || res.startsWith('*/') || res.endsWith('/*'))) {
        problems.push({
          message: `${at}.resources has a wildcard (${resources.join(', ')})`,
          fix: 'list the resources, e.g. rollouts',
        });
      }
      if (groups.includes('*'))
        problems.push({ message: `${at}.apiGroups has "*"`, fix: 'list the API groups, e.g. argoproj.io' });
      if (asArray(r.nonResourceURLs).some((url) => String(url).includes('*'))) {
        problems.push({ message: `${at}.nonResourceURLs has a wildcard`, fix: 'remove nonResourceURLs' });
      }
      return problems;
    });
    tally.check(ref, 'no-secrets', () =>
      resources.some((res) => res === 'secrets' || res.startsWith('secrets/')) &&
      (groups.length === 0 || groups.includes('') || groups.includes('*'))
        ? {
            message: `${at} grants ${verbs.join(', ')} on secrets`,
            fix: 'remove secrets from the rule; nothing this tool renders reads a Secret through the API',
          }
        : undefined,
    );
    tally.check(ref, 'no-escalation', () => {
      const escalating = verbs.filter((verb) => ESCALATING_VERBS.has(verb));
      return escalating.length > 0
        ? {
            message: `${at}.verbs has ${escalating.join(', ')}, which grant more than the rule names`,
            fix: 'remove escalate, bind and impersonate',
          }
        : undefined;
    });
  });
}
