/** verify refuses a pod no node of the stated smallest size can hold, and an object the API server cannot store. */
import { describe, expect, it } from 'vitest';
import { checkPodFit } from '../../src/verify/pod-fit';
import { checkSchema } from '../../src/verify/schema';
import { contextFor, objectsFor, planted } from './objects';

const context = contextFor();
const rendered = objectsFor(context);
const container = (name: string, memory: string, cpu = '10m') => ({
  name,
  image: 'registry.test/x:1',
  resources: { requests: { cpu, memory } },
});

describe('fit/pod-requests', () => {
  it('passes every rendered pod', () => {
    expect(checkPodFit(rendered).violations).toEqual([]);
  });

  it('refuses the pod of the old prune: one 64Mi container per namespace, 300 namespaces', () => {
    const cronJob = planted(rendered, 'CronJob', (m) => {
      m.spec.jobTemplate.spec.template.spec.containers = Array.from({ length: 300 }, (_, i) =>
        container(`ns-${i}`, '64Mi'),
      );
    });
    expect(checkPodFit([cronJob]).violations).toEqual([
      expect.objectContaining({
        rule: 'fit/pod-requests',
        message: expect.stringContaining('the pod requests 3000m of cpu; no node of the stated smallest size'),
      }),
      expect.objectContaining({
        rule: 'fit/pod-requests',
        message: expect.stringContaining('the pod requests 19200Mi of memory'),
      }),
    ]);
  });

  it('counts the largest init container when it asks for more than the containers together', () => {
    const cronJob = planted(rendered, 'CronJob', (m) => {
      m.spec.jobTemplate.spec.template.spec.initContainers = [container('init', '3Gi')];
    });
    expect(checkPodFit([cronJob]).violations).toHaveLength(1);
  });
});

describe('schema/object-size', () => {
  it('refuses an object over 1.5 MiB as JSON, as a 2,000-namespace prune CronJob was', () => {
    const cronJob = planted(rendered, 'CronJob', (m) => {
      m.metadata.annotations = { big: 'x'.repeat(1_700_000) };
    });
    expect(checkSchema([cronJob]).violations).toEqual([
      expect.objectContaining({
        rule: 'schema/object-size',
        message: expect.stringMatching(/^the object is 17\d{5} bytes as JSON; the API server cannot store/),
      }),
    ]);
  });
});
