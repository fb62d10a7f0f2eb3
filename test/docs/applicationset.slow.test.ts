/**
 * docs/argocd/applicationset.yaml against the ApplicationSet CRD of the Argo CD release the e2e build pins
 * (e2e/modules/argo-cd/go.mod; the CRD is read from that module, manifests/crds/applicationset-crd.yaml, at test
 * time), with unknown fields refused as the API server's strict field validation does, and against the shipped
 * clusters: the generator finds exactly their folders and names each Application glidepath-<cluster>.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadClusters } from '../../src/clusters';

const ROOT = join(import.meta.dirname, '../..');
const MODULE_DIR = join(ROOT, 'e2e', 'modules', 'argo-cd');

type Schema = { [key: string]: unknown };

/** The CRD's schema with additionalProperties: false wherever it lists properties and keeps no unknown field. */
function strictSchema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties')
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([name, s]) => [name, strictSchema(s)]),
      );
    else if (key === 'items' || key === 'additionalProperties')
      out[key] = typeof value === 'object' && value !== null ? strictSchema(value as Schema) : value;
    else if (!key.startsWith('x-kubernetes-')) out[key] = value;
  }
  if (
    schema.properties !== undefined &&
    schema.additionalProperties === undefined &&
    schema['x-kubernetes-preserve-unknown-fields'] !== true
  )
    out.additionalProperties = false;
  return out;
}

function applicationSetSchema(): { version: string; schema: Schema } {
  // The module as go.mod and go.sum pin it: from the module cache, else through the module proxy.
  const info = JSON.parse(
    execFileSync('go', ['mod', 'download', '-json', 'github.com/argoproj/argo-cd/v3'], {
      cwd: MODULE_DIR,
      encoding: 'utf8',
      env: { ...process.env, GOWORK: 'off', GOFLAGS: '-mod=readonly' },
    }),
  ) as { Dir: string; Version: string };
  const crd = parse(readFileSync(join(info.Dir, 'manifests', 'crds', 'applicationset-crd.yaml'), 'utf8')) as {
    spec: { versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
  };
  const v1alpha1 = crd.spec.versions.find((v) => v.name === 'v1alpha1')!;
  return { version: info.Version, schema: strictSchema(v1alpha1.schema.openAPIV3Schema) };
}

const example = parse(readFileSync(join(ROOT, 'docs', 'argocd', 'applicationset.yaml'), 'utf8'));
const { version, schema } = applicationSetSchema();
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe(`docs/argocd/applicationset.yaml, against the ApplicationSet CRD of argo-cd ${version}`, () => {
  it('is valid, with no field the CRD does not have', () => {
    expect(validate(example), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('the check refuses a misspelled field and a missing required one', () => {
    const misspelled = structuredClone(example);
    misspelled.spec.generators[0].git.directory = misspelled.spec.generators[0].git.directories;
    expect(validate(misspelled)).toBe(false);
    const noTemplate = structuredClone(example);
    delete noTemplate.spec.template;
    expect(validate(noTemplate)).toBe(false);
  });
});

describe('docs/argocd/applicationset.yaml, against the shipped clusters', () => {
  const clusters = loadClusters({ dir: join(ROOT, 'clusters') }).map((c) => c.config);
  const git = example.spec.generators[0].git as { repoURL: string; revision: string; directories: { path: string }[] };
  const glob = new RegExp(
    `^${git.directories[0]!.path.split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}$`,
  );

  it('reads the gitops repo and branch of every cluster', () => {
    for (const config of clusters)
      expect({ repo: git.repoURL, branch: git.revision }, config.name).toEqual({
        repo: config.gitops.repo,
        branch: config.gitops.baseBranch,
      });
    expect(example.spec.template.spec.source).toMatchObject({ repoURL: git.repoURL, targetRevision: git.revision });
  });

  it('finds the manifests folder of every cluster, and not its helm values folder', () => {
    for (const config of clusters) {
      expect(config.gitops.path, config.name).toMatch(glob);
      expect(config.gitops.valuesPath, config.name).not.toMatch(glob);
    }
  });

  it(
    'names each Application glidepath-<cluster>, as check-live ' + 'expects by default, and sends it to that cluster',
    () => {
      for (const config of clusters) {
        // What the generator gives the template: {{ .path.path }} and {{ index .path.segments N }}.
        const segments = config.gitops.path.split('/');
        const render = (text: string) =>
          text
            .replace(/\{\{ index \.path\.segments (\d+) \}\}/g, (_m, i: string) => segments[Number(i)]!)
            .replace('{{ .path.path }}', config.gitops.path);
        expect(render(example.spec.template.metadata.name)).toBe(`glidepath-${config.name}`);
        expect(render(example.spec.template.spec.destination.name)).toBe(config.name);
        expect(render(example.spec.template.spec.source.path)).toBe(config.gitops.path);
      }
      expect(example.spec.template.metadata.finalizers).toBeUndefined();
      expect(example.spec.template.spec.syncPolicy.automated.prune).toBe(false);
    },
  );
});
