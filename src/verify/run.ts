/** Renders a cluster and runs every rule family over its objects. Pure: no console, no exit codes. */
import { parseAllDocuments } from 'yaml';
import type { ClusterConfig } from '../config/schema';
import { isManifestFile } from '../render/kustomization';
import { renderCluster } from '../render/render-cluster';
import { filesOf, type RenderedFile } from '../render/rendered-file';
import { chartRenderedObjects } from './helm-values';
import { checkNotifications } from './notifications';
import { checkTeamNotifications } from './extra-data';
import { checkPodFit } from './pod-fit';
import { checkPodSecurity } from './pod-security';
import { checkPruneSchedule } from './prune-schedule';
import { checkRbac } from './rbac';
import { checkSchema } from './schema';
import { checkSecrets } from './secrets';
import type {
  ClusterFileLines,
  FamilyReport,
  Manifest,
  RenderedObject,
  RuleFamily,
  VerifyContext,
  Violation,
} from './types';
import { isRecord } from '../is-record';

/** The rule families, in the order the report lists them. */
export const RULE_FAMILIES: readonly RuleFamily[] = [
  checkSchema,
  checkPodSecurity,
  checkPodFit,
  checkRbac,
  checkSecrets,
  checkNotifications,
  checkTeamNotifications,
  checkPruneSchedule,
];

export interface VerifyReport {
  readonly cluster: string;
  readonly objects: number;
  readonly checks: number;
  readonly families: readonly FamilyReport[];
  readonly violations: readonly Violation[];
  readonly warnings: readonly Violation[];
}

/** Parses rendered files into objects; a file that is not valid YAML is a bug in rendering and throws. */
export function renderedObjects(files: readonly RenderedFile[]): RenderedObject[] {
  return files.flatMap((file) =>
    documentsOf(file).map(({ manifest, source }) => ({
      file: file.path,
      manifest,
      ...(source !== undefined ? { source } : {}),
    })),
  );
}

function documentsOf(file: RenderedFile): readonly { readonly manifest: Manifest; readonly source?: string }[] {
  return parseAllDocuments(file.content).flatMap((doc) => {
    if (!('errors' in doc) || doc.errors.length > 0) {
      throw new Error(
        `${file.path}: the rendered YAML does not parse: ${'errors' in doc ? doc.errors[0]?.message : 'empty'}`,
      );
    }
    const manifest: unknown = doc.toJS();
    if (manifest === null || manifest === undefined) return [];
    if (!isRecord(manifest)) throw new Error(`${file.path}: a rendered document is not a mapping`);
    const source = doc.range ? file.content.slice(doc.range[0], doc.range[2]) : undefined;
    return [{ manifest: manifest as Manifest, ...(source !== undefined ? { source } : {}) }];
  });
}

export function verifyObjects(
  objects: readonly RenderedObject[],
  context: VerifyContext,
  families: readonly RuleFamily[] = RULE_FAMILIES,
): VerifyReport {
  const reports = families.map((family) => family(objects, context));
  return {
    cluster: context.config.name,
    objects: objects.length,
    checks: reports.reduce((sum, r) => sum + r.checks, 0),
    families: reports,
    violations: reports.flatMap((r) => r.violations),
    warnings: reports.flatMap((r) => r.warnings ?? []),
  };
}

export interface VerifyClusterOptions {
  /** Values that must not appear in the output (secret-named environment variables). */
  readonly knownSecrets?: readonly string[];
  /** @default renderCluster, exactly as synth renders */
  readonly render?: (config: ClusterConfig) => RenderedFile[];
  /** Where the config's fields are in its file. @default findings name no line */
  readonly clusterFile?: ClusterFileLines;
}

/**
 * Every object of the cluster as the API server will get it: the rendered manifests, and the ConfigMap each chart
 * renders from a helm values file.
 */
export function clusterObjects(
  config: ClusterConfig,
  render: (config: ClusterConfig) => RenderedFile[] = renderCluster,
): RenderedObject[] {
  const files = render(config);
  const manifests = filesOf(files, 'manifests').filter((file) => isManifestFile(file.path));
  return [...renderedObjects(manifests), ...chartRenderedObjects(config, filesOf(files, 'values'))];
}

/** Renders the cluster and verifies every object. */
export function verifyCluster(config: ClusterConfig, options: VerifyClusterOptions = {}): VerifyReport {
  return verifyObjects(clusterObjects(config, options.render), {
    config,
    ...(options.knownSecrets ? { knownSecrets: options.knownSecrets } : {}),
    ...(options.clusterFile ? { clusterFile: options.clusterFile } : {}),
  });
}
