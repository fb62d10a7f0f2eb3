/** The Argo Rollouts and Argo CD notifications controllers: running, and of a release glidepath renders for. */
import type { ClusterConfig } from '../config/schema';
import { compareReleases } from '../notifications/engine-versions';
import { declaredReleases, engineVersionProblems } from '../notifications/support/engine-support';
import type { LiveCheckInput } from './check-input';
import { ok, problem, type Finding } from './findings';
import type { Json, ReadResult } from './kubectl';
import { isRecord } from '../is-record';
import { items, meta, unreadable } from './live-objects';

export async function checkControllers({ config, kubectl }: LiveCheckInput): Promise<Finding[]> {
  const [rollouts, argocd] = await Promise.all([
    kubectl.getJson('deployments', { namespace: config.rollouts.namespace }),
    kubectl.getJson('deployments', { namespace: config.argocd.namespace }),
  ]);
  return [
    controllerFinding(config, CONTROLLERS.rollouts, rollouts),
    controllerFinding(config, CONTROLLERS.argocd, argocd),
  ];
}

export interface Controller {
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

export const CONTROLLERS: Readonly<Record<'rollouts' | 'argocd', Controller>> = {
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

/** The Deployments of a list (`kubectl get deployments`) that run the controller's image, with that image. */
export function runningImages(
  controller: Controller,
  deployments: Json,
): { deployment: string; namespace: string; image: string }[] {
  return items(deployments).flatMap((deployment) => {
    const { name = '', namespace = '' } = meta(deployment);
    const listed = (((deployment.spec as Json | undefined)?.template as Json | undefined)?.spec as Json | undefined)
      ?.containers;
    const images = (Array.isArray(listed) ? listed : []).flatMap((c: unknown) =>
      isRecord(c) && typeof c.image === 'string' ? [c.image] : [],
    );
    return controller.named(name)
      ? images.filter((image) => controller.image.test(image)).map((image) => ({ deployment: name, namespace, image }))
      : [];
  });
}

/** The release in an image's tag (`quay.io/argoproj/argo-rollouts:v1.9.1` gives `1.9.1`), if it has one. */
export function imageRelease(image: string): string | undefined {
  return /:v?(\d+\.\d+\.\d+)/.exec(image.split('@')[0]!.slice(image.lastIndexOf('/')))?.[1];
}

/** The controller's release, read from its image, against what glidepath supports and what the cluster file says. */
function controllerFinding(config: ClusterConfig, controller: Controller, result: ReadResult<Json>): Finding {
  const subject = `${controller.what} in ${controller.namespace(config)}`;
  const blocked = unreadable(subject, result, 'grant your user list on deployments there');
  if (blocked) return blocked;
  const found = result.found ? runningImages(controller, result.value) : [];
  const assumed = declaredReleases(config)[controller.engine];
  if (found.length === 0) {
    return problem(
      subject,
      'not found (no Deployment runs its image here)',
      `check the namespace in the cluster file, or install it (the file assumes ${assumed}; see ` +
        `docs/engine-versions.md)`,
    );
  }
  const { deployment, image } = found[0]!;
  const version = imageRelease(image);
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
      `${runs}, older than ${controller.field} (${declared}): what glidepath renders for ${declared} may not ` +
        `compile on it`,
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
