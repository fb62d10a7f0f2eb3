/** The Veridor gate's ConfigMap and Secret in each namespace it runs in. */
import type { LiveCheckInput } from './check-input';
import { ok, problem, type Finding } from './findings';
import { unreadable } from './live-objects';

export async function checkVeridor({ config, kubectl }: LiveCheckInput): Promise<Finding[]> {
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
                `kubectl -n ${namespace} create configmap ${configMap} --from-file=veridor.json ` +
                  `--dry-run=client -o yaml | kubectl apply -f -`,
              )
            : ok(mapSubject, 'holds veridor.json'));
      const secretFinding =
        unreadable(secretSubject, keys, 'grant your user get on secrets there (only the keys are read)') ??
        (keys.found
          ? ok(secretSubject, `present (${keys.value.size} keys, values not read)`)
          : problem(
              secretSubject,
              'missing: the gate runs without Veridor credentials',
              `kubectl -n ${namespace} create secret generic ${secret} --from-file=<KEY>=<a file holding the value>`,
            ));
      return [mapFinding, secretFinding];
    }),
  );
  return perNamespace.flat();
}
