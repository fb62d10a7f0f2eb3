/**
 * verify's schema/pod-template rule: what the API server refuses in a rendered pod template's metadata, beyond the
 * OpenAPI schema. The cluster file's `prune.pod`/`veridor.pod` refuse most of it at load; these plant it in the
 * rendered objects, as a hand edit or a later change of the constructs would.
 */
import { describe, expect, it } from 'vitest';
import { checkSchema } from '../../src/verify/schema';
import { checkPodSecurity } from '../../src/verify/pod-security';
import { contextFor, handBuilt, objectsFor, planted } from './objects';

const objects = objectsFor(contextFor());
const analysisPod = (m: any) => m.spec.metrics[0].provider.job.spec.template;
const cronJobPod = (m: any) => m.spec.jobTemplate.spec.template;

/** The schema/pod-template violations of the AnalysisTemplate with `annotations` and `labels` on its pod. */
function analysisViolations(metadata: { annotations?: object; labels?: object }): string[] {
  const object = planted(objects, 'AnalysisTemplate', (m) => Object.assign(analysisPod(m), { metadata }));
  return checkSchema([object])
    .violations.filter((v) => v.rule === 'schema/pod-template')
    .map((v) => v.message);
}

describe('schema/pod-template', () => {
  it('passes the rendered pods', () => {
    expect(checkSchema(objects).violations).toEqual([]);
  });

  it('refuses an AppArmor annotation naming no container of the pod (ValidateAppArmorPodAnnotations)', () => {
    expect(
      analysisViolations({
        annotations: { 'container.apparmor.security.beta.kubernetes.io/prune': 'runtime/default' },
      }),
    ).toEqual([
      'spec.metrics[0].provider.job.spec.template.metadata.annotations["container.apparmor.security.beta.' +
        'kubernetes.io/prune"] names no container of the pod (veridor): the API server refuses the pod template',
    ]);
    expect(
      analysisViolations({
        annotations: { 'container.apparmor.security.beta.kubernetes.io/veridor': 'runtime/default' },
      }),
    ).toEqual([]);
  });

  it("refuses a container's seccomp annotation that disagrees with its RuntimeDefault field", () => {
    expect(
      analysisViolations({ annotations: { 'container.seccomp.security.alpha.kubernetes.io/veridor': 'unconfined' } }),
    ).toEqual([expect.stringMatching(/seccomp\.security\.alpha\.kubernetes\.io\/veridor"\] is "unconfined", and/)]);
    // A container the pod does not have: the API server checks the value's form only.
    expect(
      analysisViolations({ annotations: { 'container.seccomp.security.alpha.kubernetes.io/other': 'localhost/a' } }),
    ).toEqual([]);
  });

  it("refuses a Job controller's label, a label value and an annotation key the API server refuses", () => {
    expect(analysisViolations({ labels: { 'batch.kubernetes.io/controller-uid': 'x' } })).toEqual([
      expect.stringMatching(/controller-uid"\]: the Job controller sets this label/),
    ]);
    expect(analysisViolations({ labels: { team: 'a b' } })).toEqual([
      expect.stringMatching(/labels\["team"\]: "a b" is not a label value/),
    ]);
    expect(analysisViolations({ annotations: { 'Example.com/Owner': 'x', '-bad': 'y' } })).toEqual([
      expect.stringMatching(/annotations\["-bad"\]: the key is not a qualified name/),
    ]);
  });

  it("leaves the Job controller's labels to other kinds' pods (a bare Pod may carry job-name)", () => {
    const pod = handBuilt({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'debug', namespace: 'shop', labels: { 'job-name': 'x' } },
      spec: { containers: [{ name: 'debug', image: 'busybox:1.36' }] },
    });
    expect(checkSchema([pod]).violations.filter((v) => v.rule === 'schema/pod-template')).toEqual([]);
  });

  it('checks the prune pod too', () => {
    const object = planted(objects, 'CronJob', (m) =>
      Object.assign(cronJobPod(m).metadata, { annotations: { 'kubernetes.io/config.mirror': 'x' } }),
    );
    expect(checkSchema([object]).violations.map((v) => v.rule)).toEqual(['schema/pod-template']);
  });
});

describe('pod-security/apparmor with annotations', () => {
  it('refuses unconfined and takes an empty value as Pod Security does', () => {
    const podWith = (value: string) =>
      planted(objects, 'AnalysisTemplate', (m) =>
        Object.assign(analysisPod(m), {
          metadata: { annotations: { 'container.apparmor.security.beta.kubernetes.io/veridor': value } },
        }),
      );
    expect(checkPodSecurity([podWith('unconfined')]).violations.map((v) => v.rule)).toEqual(['pod-security/apparmor']);
    expect(checkPodSecurity([podWith('')]).violations).toEqual([]);
  });
});
