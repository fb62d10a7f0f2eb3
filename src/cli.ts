#!/usr/bin/env node
/** The command line: the only module that reads argv, prints, and chooses exit codes. */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from './config/errors';
import { synth } from './synth';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_BAD_INPUT = 2;

const USAGE = `glidepath-gitops: renders the manifests that feed Glidepath with release facts.

Usage:
  npm run synth [-- options]        render clusters/*.yaml into dist/<cluster>/

Options:
  --cluster NAME|FILE   only this cluster (a name from clusters/, or a cluster file)
  --relay-ip IP         override relay.ip of that cluster (IPv4 or IPv6), e.g. after the dev VM moved
  --clusters DIR        folder of cluster files (default: clusters)
  --out DIR             output folder (default: dist)
  -h, --help            show this help

Exit codes: 0 done, 1 failure, 2 bad input (nothing was written).`;

const OPTIONS = {
  cluster: { type: 'string' },
  'relay-ip': { type: 'string' },
  clusters: { type: 'string', default: 'clusters' },
  // `cdk8s synth` passes its output folder in CDK8S_OUTDIR.
  out: { type: 'string', default: process.env.CDK8S_OUTDIR ?? 'dist' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

export function main(argv: readonly string[]): number {
  const [command = 'synth', ...rest] = argv[0]?.startsWith('-') ? ['synth', ...argv] : argv;
  try {
    switch (command) {
      case 'synth':
        return runSynth(rest);
      case 'help':
        console.log(USAGE);
        return EXIT_OK;
      default:
        console.error(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
        return EXIT_BAD_INPUT;
    }
  } catch (error) {
    return reportError(error);
  }
}

function runSynth(args: string[]): number {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    console.log(USAGE);
    return EXIT_OK;
  }
  const result = synth({
    dir: values.clusters,
    outDir: values.out,
    ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
    ...(values['relay-ip'] !== undefined ? { relayIp: values['relay-ip'] } : {}),
  });
  for (const cluster of result.clusters) {
    console.log(`${result.outDir}/${cluster.name}/ (${cluster.files.length} files)`);
    for (const file of cluster.files) console.log(`  ${file.path}`);
  }
  return EXIT_OK;
}

function reportError(error: unknown): number {
  if (error instanceof ConfigError) {
    for (const problem of error.problems) console.error(problem);
    console.error('nothing was written.');
    return EXIT_BAD_INPUT;
  }
  if (isArgError(error)) {
    console.error(`${error.message}\n\n${USAGE}`);
    return EXIT_BAD_INPUT;
  }
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return EXIT_FAILURE;
}

function isArgError(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  return script !== undefined && import.meta.url === pathToFileURL(realpathSync(script)).href;
}

if (isEntryPoint()) process.exitCode = main(process.argv.slice(2));
