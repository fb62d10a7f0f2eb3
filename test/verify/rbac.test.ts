import { describe, expect, it } from 'vitest';
import { checkRbac } from '../../src/verify/rbac';
import { contextFor, handBuilt, objectsFor, planted } from './objects';

const context = contextFor();
const objects = objectsFor(context);

describe('rbac', () => {
  it('passes the rendered prune RBAC: one Role and RoleBinding per tracked namespace', () => {
    const report = checkRbac(objects, context);
    expect(report.violations).toEqual([]);
    expect(report.objects).toBe(4);
  });

  it.each([
    ['verbs', /rules\[0\]\.verbs has "\*"/, (r: any) => (r.verbs = ['*'])],
    ['resources', /rules\[0\]\.resources has a wildcard/, (r: any) => (r.resources = ['*'])],
    ['subresources', /rules\[0\]\.resources has a wildcard/, (r: any) => (r.resources = ['rollouts/*'])],
    ['apiGroups', /rules\[0\]\.apiGroups has "\*"/, (r: any) => (r.apiGroups = ['*'])],
  ])('refuses a wildcard in %s', (_field, message, plant) => {
    const bad = planted(objects, 'Role', (m) => plant(m.rules[0]));
    expect(checkRbac([bad], context).violations).toEqual([
      expect.objectContaining({
        object: 'Role/shop/glidepath-notified-prune',
        rule: 'rbac/no-wildcards',
        message: expect.stringMatching(message),
      }),
    ]);
  });

  it('refuses access to secrets', () => {
    const bad = planted(objects, 'Role', (m) =>
      m.rules.push({ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }),
    );
    expect(checkRbac([bad], context).violations).toEqual([
      expect.objectContaining({
        object: 'Role/shop/glidepath-notified-prune',
        rule: 'rbac/no-secrets',
        message: 'rules[1] grants get on secrets',
      }),
    ]);
  });

  it('refuses verbs that escalate, and bindings to built-in roles', () => {
    const escalate = planted(objects, 'Role', (m) => m.rules[0].verbs.push('bind'));
    const admin = planted(
      objects,
      'RoleBinding',
      (m) => (m.roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' }),
    );
    expect(checkRbac([escalate, admin], context).violations.map((v) => [v.object, v.rule])).toEqual([
      ['Role/shop/glidepath-notified-prune', 'rbac/no-escalation'],
      ['RoleBinding/shop/glidepath-notified-prune', 'rbac/built-in-role'],
    ]);
  });

  it('refuses cluster scope unless the cluster file asked for it', () => {
    const clusterRole = handBuilt({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'glidepath-notified-prune' },
      rules: [{ apiGroups: ['argoproj.io'], resources: ['rollouts'], verbs: ['get', 'list', 'patch'] }],
    });
    expect(checkRbac([clusterRole], context).violations).toEqual([
      expect.objectContaining({
        object: 'ClusterRole/glidepath-notified-prune',
        rule: 'rbac/cluster-scope',
        fix: expect.stringContaining('prune.clusterScope: true'),
      }),
    ]);
    const asked = contextFor({ prune: { clusterScope: true } as never });
    expect(checkRbac([clusterRole], asked).violations).toEqual([]);
  });

  it('passes the rendered cluster-scoped RBAC when the cluster file asks for it', () => {
    const asked = contextFor({ prune: { clusterScope: true } as never });
    const all = objectsFor(asked);
    expect(all.some((o) => o.manifest.kind === 'ClusterRole')).toBe(true);
    expect(checkRbac(all, asked).violations).toEqual([]);
  });
});
