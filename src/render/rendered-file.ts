/** What a render produces: files, each for the manifests folder or the helm values folder. Imports nothing heavy. */

export interface RenderedFile {
  /** File name inside its folder: `<chart id>.k8s.yaml`, or a helm values file. */
  readonly path: string;
  readonly content: string;
  /**
   * `values`: a helm values file, for gitops.valuesPath (`dist/<cluster>-values/`), never applied as a manifest.
   * @default the cluster's manifests folder (gitops.path, `dist/<cluster>/`)
   */
  readonly folder?: 'values';
}

export interface RenderedCluster {
  readonly name: string;
  readonly files: readonly RenderedFile[];
}

/** The rendered file that holds the ConfigMap `name` (each notifications ConfigMap has a file of its own). */
export function fileWithConfigMap(files: readonly RenderedFile[], name: string): RenderedFile | undefined {
  return files.find((file) => file.content.includes(`name: ${name}\n`));
}

/** The files of one folder: the manifests, or (`values`) the helm values files. */
export function filesOf(files: readonly RenderedFile[], folder: 'manifests' | 'values'): RenderedFile[] {
  return files.filter((file) => (file.folder === 'values') === (folder === 'values'));
}
