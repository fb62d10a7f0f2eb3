import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chartNotificationsData } from '../../src/notifications/model/helm-charts';

describe("the model of the argo-helm charts' toYaml", () => {
  it(
    'quotes what Go reads as a bool or a number, as sigs.k8s.io/yaml Marshal does (npm run judge:helm renders ' +
      'with real Helm)',
    () => {
      const values = {
        notifications: { argocdUrl: 'https://a.test', context: { notifyOnCall: 'yes', batch: '1_000', mode: '0o17' } },
      };
      const data = chartNotificationsData('argo-cd', 'argocd', [values])!;
      expect(data.context).toContain('notifyOnCall: "yes"');
      expect(parse(data.context!, { version: '1.1' })).toEqual({
        argocdUrl: 'https://a.test',
        batch: '1_000',
        mode: '0o17',
        notifyOnCall: 'yes',
      });
    },
  );
});
