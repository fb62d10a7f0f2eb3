/**
 * Every component `npm run e2e` builds, pinned in one place. Each `module` entry must match the `require` line
 * of the build module's go.mod in `e2e/modules/<name>/` (checked before anything is built).
 */

/** A one-line change to an upstream source file, applied to a copy of the module (never to the module cache). */
export interface SourcePatch {
  readonly module: string;
  readonly file: string;
  readonly from: string;
  readonly to: string;
  readonly why: string;
}

export interface Component {
  readonly name: string;
  /** Folder under e2e/modules/ holding the committed go.mod/go.sum. */
  readonly buildModule: string;
  /** The upstream module and its pinned version (the `require` line in the build module's go.mod). */
  readonly module: string;
  readonly version: string;
  /** Binary name -> Go package built into it. */
  readonly binaries: Readonly<Record<string, string>>;
  readonly ldflags: readonly string[];
  readonly patches: readonly SourcePatch[];
  /** The command that makes the first binary print its own version. */
  readonly versionArgs: readonly string[];
  /** When it cannot be built, the run goes on without it and fails only the scenarios that need it. */
  readonly optional?: boolean;
  /** Build tags (`go build -tags`). */
  readonly tags?: readonly string[];
  /**
   * Built as the main module: a writable copy of the upstream module's folder, with its own go.mod, so that its
   * `replace` lines apply (they do not when it is a dependency). The build module's go.mod only pins it and its
   * go.sum verifies the download; the binaries are packages of the copy (`.` is its root).
   */
  readonly mainModule?: boolean;
  /** Built only once this component is, whose Go build cache it reuses (the same dependencies). */
  readonly buildAfter?: string;
  /** Folders of the upstream module the binary reads at run time, kept in the cache under `share/`. */
  readonly runtimeFolders?: readonly string[];
}

const K8S_VERSION = 'v1.28.15';
const ROLLOUTS_VERSION = 'v1.9.1';
const ROLLOUTS_COMMIT = 'b6bd3bcf8f60d717a98763d26acc983db7f97cb0';
const ARGOCD_VERSION = 'v3.2.12';
const ARGOCD_SYNC_VERSION = 'v3.2.11';
const GITEA_VERSION = 'v1.26.0';
// What Argo CD v3.2.12 pins for the repo server's tools (its hack/tool-versions.sh).
const HELM_VERSION = 'v3.18.4';
const KUSTOMIZE_VERSION = 'v5.7.0';

const LOOPBACK_ONLY =
  'the upstream code listens on 0.0.0.0 with no flag to change it; the e2e listens on 127.0.0.1 only';

export const COMPONENTS: readonly Component[] = [
  {
    name: 'etcd',
    buildModule: 'etcd',
    module: 'go.etcd.io/etcd/server/v3',
    version: 'v3.5.35',
    binaries: { etcd: 'go.etcd.io/etcd/server/v3' },
    ldflags: [],
    patches: [],
    versionArgs: ['--version'],
  },
  {
    name: 'kubernetes',
    buildModule: 'kubernetes',
    module: 'k8s.io/kubernetes',
    version: K8S_VERSION,
    binaries: {
      'kube-apiserver': 'k8s.io/kubernetes/cmd/kube-apiserver',
      'kube-controller-manager': 'k8s.io/kubernetes/cmd/kube-controller-manager',
      'kube-scheduler': 'k8s.io/kubernetes/cmd/kube-scheduler',
      kubectl: 'k8s.io/kubernetes/cmd/kubectl',
    },
    // What hack/lib/version.sh stamps into a release build, so that every binary reports v1.28.15.
    ldflags: [
      `-X k8s.io/component-base/version.gitVersion=${K8S_VERSION}`,
      '-X k8s.io/component-base/version.gitMajor=1',
      '-X k8s.io/component-base/version.gitMinor=28',
      '-X k8s.io/component-base/version.gitTreeState=clean',
      `-X k8s.io/client-go/pkg/version.gitVersion=${K8S_VERSION}`,
    ],
    patches: [],
    versionArgs: ['--version'],
  },
  {
    name: 'kwok',
    buildModule: 'kwok',
    module: 'sigs.k8s.io/kwok',
    version: 'v0.8.0',
    binaries: { kwok: 'sigs.k8s.io/kwok/cmd/kwok' },
    ldflags: [],
    patches: [],
    versionArgs: ['--version'],
  },
  {
    name: 'argo-rollouts',
    buildModule: 'argo-rollouts',
    module: 'github.com/argoproj/argo-rollouts',
    version: ROLLOUTS_VERSION,
    binaries: { 'rollouts-controller': 'github.com/argoproj/argo-rollouts/cmd/rollouts-controller' },
    ldflags: [
      `-X github.com/argoproj/argo-rollouts/utils/version.version=${ROLLOUTS_VERSION.slice(1)}`,
      `-X github.com/argoproj/argo-rollouts/utils/version.gitTag=${ROLLOUTS_VERSION}`,
      `-X github.com/argoproj/argo-rollouts/utils/version.gitCommit=${ROLLOUTS_COMMIT}`,
      '-X github.com/argoproj/argo-rollouts/utils/version.gitTreeState=clean',
    ],
    patches: [
      {
        module: 'github.com/argoproj/argo-rollouts',
        file: 'controller/controller.go',
        from: 'listenAddr                         = "0.0.0.0:%d"',
        to: 'listenAddr                         = "127.0.0.1:%d"',
        why: `metrics and healthz: ${LOOPBACK_ONLY}`,
      },
    ],
    versionArgs: ['--version'],
  },
  {
    name: 'argo-cd',
    buildModule: 'argo-cd',
    module: 'github.com/argoproj/argo-cd/v3',
    version: ARGOCD_VERSION,
    // e2e/modules/argo-cd/cmd/argocd-notifications runs the command `argocd` serves as argocd-notifications.
    binaries: { 'argocd-notifications': './cmd/argocd-notifications' },
    // The module proxy records no commit for this tag, so it reports itself as v3.2.12+unknown.
    ldflags: [
      `-X github.com/argoproj/argo-cd/v3/common.version=${ARGOCD_VERSION.slice(1)}`,
      `-X github.com/argoproj/argo-cd/v3/common.gitTag=${ARGOCD_VERSION}`,
      '-X github.com/argoproj/argo-cd/v3/common.gitTreeState=clean',
    ],
    patches: [
      {
        module: 'github.com/argoproj/argo-cd/v3',
        file: 'cmd/argocd-notification/commands/controller.go',
        from: 'fmt.Sprintf("0.0.0.0:%d", metricsPort)',
        to: 'fmt.Sprintf("127.0.0.1:%d", metricsPort)',
        why: `metrics: ${LOOPBACK_ONLY}`,
      },
    ],
    versionArgs: ['version'],
    optional: true,
  },
  {
    // The application controller and the repo server. v3.2.12's do not compile: its controller/cache/info.go (a
    // backported fix) calls settings.ValidateExternalURL, which v3.2.12 does not define. v3.2.11 is the newest
    // release whose whole module builds; the notifications controller stays at v3.2.12 (its packages build).
    name: 'argo-cd-sync',
    buildModule: 'argo-cd-sync',
    module: 'github.com/argoproj/argo-cd/v3',
    version: ARGOCD_SYNC_VERSION,
    binaries: {
      'argocd-application-controller': './cmd/argocd-application-controller',
      'argocd-repo-server': './cmd/argocd-repo-server',
    },
    ldflags: [
      `-X github.com/argoproj/argo-cd/v3/common.version=${ARGOCD_SYNC_VERSION.slice(1)}`,
      `-X github.com/argoproj/argo-cd/v3/common.gitTag=${ARGOCD_SYNC_VERSION}`,
      '-X github.com/argoproj/argo-cd/v3/common.gitTreeState=clean',
    ],
    patches: [
      {
        module: 'github.com/argoproj/argo-cd/v3',
        file: 'controller/appcontroller.go',
        from: 'metricsAddr := fmt.Sprintf("0.0.0.0:%d", metricsPort)',
        to: 'metricsAddr := fmt.Sprintf("127.0.0.1:%d", metricsPort)',
        why: `application controller metrics: ${LOOPBACK_ONLY}`,
      },
    ],
    versionArgs: ['version'],
    optional: true,
    buildAfter: 'argo-cd',
  },
  {
    name: 'gitea',
    buildModule: 'gitea',
    module: 'code.gitea.io/gitea',
    version: GITEA_VERSION,
    binaries: { gitea: '.' },
    // What its Makefile stamps; sqlite is a build tag, off by default.
    ldflags: [`-X main.Version=${GITEA_VERSION.slice(1)}`],
    tags: ['sqlite', 'sqlite_unlock_notify'],
    mainModule: true,
    // Without the bindata tag (which needs the web build), it reads these from [server] STATIC_ROOT_PATH.
    runtimeFolders: ['options', 'templates'],
    patches: [],
    versionArgs: ['--version'],
    optional: true,
  },
  {
    name: 'helm',
    buildModule: 'helm',
    module: 'helm.sh/helm/v3',
    version: HELM_VERSION,
    binaries: { helm: 'helm.sh/helm/v3/cmd/helm' },
    // What its Makefile stamps, but no commit: the module proxy records none for this tag. The Kubernetes version is
    // that of its k8s.io modules (v0.33.2 in e2e/modules/helm/go.mod).
    ldflags: [
      `-X helm.sh/helm/v3/internal/version.version=${HELM_VERSION}`,
      '-X helm.sh/helm/v3/internal/version.gitTreeState=clean',
      '-X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1',
      '-X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=33',
      '-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1',
      '-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=33',
    ],
    patches: [],
    versionArgs: ['version', '--short'],
    optional: true,
  },
  {
    name: 'kustomize',
    buildModule: 'kustomize',
    module: 'sigs.k8s.io/kustomize/kustomize/v5',
    version: KUSTOMIZE_VERSION,
    binaries: { kustomize: 'sigs.k8s.io/kustomize/kustomize/v5' },
    ldflags: [`-X sigs.k8s.io/kustomize/api/provenance.version=${KUSTOMIZE_VERSION}`],
    patches: [],
    versionArgs: ['version'],
    optional: true,
  },
];

/** Kubernetes objects the run reads from outside the repository at run time (never copied into it). */
export const ROLLOUTS_CRD_DIR = '../shared/crds/argo-rollouts-v1.9.1';
/** The Rollouts CRDs that folder lacks and the controller watches, from the pinned argo-rollouts module. */
export const ROLLOUTS_MODULE_CRD_FILES = ['manifests/crds/analysis-run-crd.yaml', 'manifests/crds/experiment-crd.yaml'];
export const ARGOCD_CRD_FILES = ['manifests/crds/application-crd.yaml', 'manifests/crds/appproject-crd.yaml'];
