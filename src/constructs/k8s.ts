/**
 * The core Kubernetes API classes cdk8s-plus-28 generates (KubeConfigMap, KubeCronJob, ...). Loaded from their
 * own file: `import { k8s } from 'cdk8s-plus-28'` would also load all of cdk8s-plus, which the CLI never uses.
 */
export * as k8s from 'cdk8s-plus-28/lib/imports/k8s';
