import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { E2eError } from './errors';
import { COMPONENTS, type Component, type SourcePatch } from './versions';

export const E2E_DIR = resolve(import.meta.dirname, '..');
/** The build modules say `go 1.26`. */
const MIN_GO_MINOR = 26;

export interface BuiltComponent {
  readonly component: Component;
  /** binary name -> absolute path */
  readonly bin: Readonly<Record<string, string>>;
  readonly built: boolean;
  readonly seconds: number;
  readonly cacheDir: string;
  /** What the cache recorded when it was built (its `complete` file): how long that took, when, with which Go. */
  readonly recorded?: { readonly seconds: number; readonly builtAt: string; readonly go: string };
}

export function cacheRoot(): string {
  return process.env.GLIDEPATH_E2E_CACHE ?? join(homedir(), '.cache', 'glidepath-e2e');
}

function goEnv(): NodeJS.ProcessEnv {
  // GOTOOLCHAIN=local: a module that asks for a newer Go fails here instead of downloading a toolchain.
  return { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=readonly' };
}

export function goVersion(): string {
  const result = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8', env: goEnv() });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new E2eError(
      'Go is not installed: `npm run e2e` builds its components with `go build`. Install Go 1.26 and put `go` on PATH.',
    );
  }
  const version = result.status === 0 ? result.stdout.trim() : '';
  const [major, minor] = /^go(\d+)\.(\d+)/.exec(version)?.slice(1).map(Number) ?? [0, 0];
  if (major! < 1 || (major === 1 && minor! < MIN_GO_MINOR)) {
    const found = version || spawnSync('go', ['version'], { encoding: 'utf8' }).stdout.trim() || 'an unknown version';
    throw new E2eError(
      `Go 1.${MIN_GO_MINOR} or newer is needed to build the e2e components; \`go\` on PATH is ${found}. ` +
        `Put Go 1.${MIN_GO_MINOR} first on PATH.`,
    );
  }
  return version;
}

function buildModuleDir(component: Component): string {
  return join(E2E_DIR, 'modules', component.buildModule);
}

/** The build module's go.mod must require exactly the pinned version. */
function checkPin(component: Component): void {
  const goMod = join(buildModuleDir(component), 'go.mod');
  const text = readFileSync(goMod, 'utf8');
  const escaped = component.module.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const required = new RegExp(`^\\s*(?:require\\s+)?${escaped}\\s+(\\S+)`, 'm').exec(text)?.[1];
  if (required !== component.version) {
    throw new E2eError(
      `${goMod}: requires ${component.module} ${required ?? '(nothing)'}, ` +
        `but e2e/lib/versions.ts pins ${component.version}; ` +
        `run \`go get ${component.module}@${component.version} && go mod tidy\` in ${buildModuleDir(component)}`,
    );
  }
}

function cacheKey(component: Component, go: string): string {
  const dir = buildModuleDir(component);
  const hash = createHash('sha256');
  hash.update(JSON.stringify(component));
  hash.update(go);
  for (const file of ['go.mod', 'go.sum']) hash.update(readFileSync(join(dir, file)));
  for (const file of goSources(dir)) hash.update(file).update(readFileSync(join(dir, file)));
  return `${component.name}-${component.version}-${hash.digest('hex').slice(0, 12)}`;
}

function goSources(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix))
    .flatMap((entry) => {
      const path = join(prefix, entry);
      if (statSync(join(dir, path)).isDirectory()) return goSources(dir, path);
      return path.endsWith('.go') ? [path] : [];
    })
    .sort();
}

interface Run {
  readonly code: number;
  readonly output: string;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: goEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

const UNREACHABLE =
  /dial tcp|no such host|connection refused|i\/o timeout|TLS handshake timeout|network is unreachable|proxyconnect/;

function failure(component: Component, step: string, result: Run): E2eError {
  if (UNREACHABLE.test(result.output)) {
    const proxy = spawnSync('go', ['env', 'GOPROXY'], { encoding: 'utf8', env: goEnv() }).stdout.trim();
    return new E2eError(
      `cannot build ${component.name}: the Go module proxy (GOPROXY=${proxy}) is unreachable while ${step}.\n` +
        `${lastLines(result.output, 5)}\n` +
        'Check the network or GOPROXY; the modules of e2e/modules/ must be downloadable once.',
    );
  }
  return new E2eError(
    `cannot build ${component.name} ${component.version} (${step}):\n${lastLines(result.output, 30)}`,
  );
}

function lastLines(text: string, count: number): string {
  return text.trim().split('\n').slice(-count).join('\n');
}

async function moduleDir(component: Component, module: string, version: string): Promise<string> {
  const result = await run('go', ['mod', 'download', '-json', `${module}@${version}`], buildModuleDir(component));
  if (result.code !== 0) throw failure(component, `downloading ${module}@${version}`, result);
  return (JSON.parse(result.output) as { Dir: string }).Dir;
}

/** Copies the patched module out of the module cache and returns the go.mod that replaces it with the copy. */
async function patchedModFile(component: Component, work: string): Promise<string | undefined> {
  if (component.patches.length === 0) return undefined;
  const modules = [...new Set(component.patches.map((patch) => patch.module))];
  const replaces: string[] = [];
  for (const [index, module] of modules.entries()) {
    const source = await moduleDir(component, module, component.version);
    const copy = join(work, 'src', String(index));
    cpSync(source, copy, { recursive: true });
    // The module cache is read-only; the copy must be writable to patch it and to remove it.
    spawnSync('chmod', ['-R', 'u+w', copy]);
    for (const patch of component.patches.filter((p) => p.module === module)) applyPatch(copy, patch);
    replaces.push(`replace ${module} => ${copy}`);
  }
  const dir = buildModuleDir(component);
  const modFile = join(work, 'go.mod');
  writeFileSync(modFile, `${readFileSync(join(dir, 'go.mod'), 'utf8')}\n${replaces.join('\n')}\n`);
  writeFileSync(join(work, 'go.sum'), readFileSync(join(dir, 'go.sum')));
  return modFile;
}

/** A writable copy of the upstream module (verified by the build module's go.sum), patched, to build in. */
async function mainModuleCopy(component: Component, work: string): Promise<string> {
  const copy = join(work, 'src');
  cpSync(await moduleDir(component, component.module, component.version), copy, { recursive: true });
  spawnSync('chmod', ['-R', 'u+w', copy]);
  for (const patch of component.patches) applyPatch(copy, patch);
  return copy;
}

function applyPatch(root: string, patch: SourcePatch): void {
  const file = join(root, patch.file);
  const text = readFileSync(file, 'utf8');
  const count = text.split(patch.from).length - 1;
  if (count !== 1)
    throw new E2eError(
      `${patch.module}/${patch.file}: expected the text ${JSON.stringify(patch.from)} once, found it ${count} times`,
    );
  writeFileSync(file, text.replace(patch.from, patch.to));
}

/** A component already in the cache, or undefined when it must be built. */
function fromCache(component: Component, go: string): BuiltComponent | undefined {
  const cacheDir = join(cacheRoot(), cacheKey(component, go));
  if (!existsSync(join(cacheDir, 'complete'))) return undefined;
  const recorded = JSON.parse(readFileSync(join(cacheDir, 'complete'), 'utf8')) as BuiltComponent['recorded'];
  const bin = binaries(component, cacheDir);
  return { component, bin, built: false, seconds: 0, cacheDir, ...(recorded ? { recorded } : {}) };
}

function binaries(component: Component, cacheDir: string): Record<string, string> {
  return Object.fromEntries(Object.keys(component.binaries).map((name) => [name, join(cacheDir, 'bin', name)]));
}

/** Downloads every module the component's build needs into the Go module cache: network, no compiling. */
async function download(component: Component): Promise<void> {
  checkPin(component);
  const result = await run('go', ['mod', 'download'], buildModuleDir(component));
  if (result.code !== 0) throw failure(component, 'downloading its modules', result);
}

async function compile(component: Component, go: string, log: (line: string) => void): Promise<BuiltComponent> {
  const cacheDir = join(cacheRoot(), cacheKey(component, go));
  const started = Date.now();
  log(`building ${component.name} ${component.version} into ${cacheDir} (the first run only)`);
  const work = `${cacheDir}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'bin'), { recursive: true });
  try {
    const dir = component.mainModule ? await mainModuleCopy(component, work) : buildModuleDir(component);
    const modFile = component.mainModule ? undefined : await patchedModFile(component, work);
    const ldflags = ['-s', '-w', ...component.ldflags].join(' ');
    const tags = component.tags?.length ? ['-tags', component.tags.join(',')] : [];
    const args = [
      '-n',
      '10',
      'go',
      'build',
      '-trimpath',
      ...tags,
      ...(modFile ? ['-modfile', modFile] : []),
      '-ldflags',
      ldflags,
    ];
    // One go build for all binaries of a module: it compiles each shared package once. With several packages,
    // go names each binary after its package's last element, which the binary names in versions.ts follow.
    const entries = Object.entries(component.binaries);
    const output = entries.length === 1 ? join(work, 'bin', entries[0]![0]) : `${join(work, 'bin')}/`;
    const result = await run('nice', [...args, '-o', output, ...entries.map(([, pkg]) => pkg)], dir);
    if (result.code !== 0) throw failure(component, `go build ${entries.map(([, pkg]) => pkg).join(' ')}`, result);
    const missing = entries.filter(([name]) => !existsSync(join(work, 'bin', name)));
    if (missing.length)
      throw new E2eError(`go build of ${component.name} made no ${missing.map(([name]) => name).join(', ')}`);
    for (const folder of component.runtimeFolders ?? [])
      cpSync(join(work, 'src', folder), join(work, 'share', folder), { recursive: true });
    rmSync(join(work, 'src'), { recursive: true, force: true });
    const seconds = (Date.now() - started) / 1000;
    writeFileSync(join(work, 'complete'), JSON.stringify({ go, seconds, builtAt: new Date().toISOString() }) + '\n');
    rmSync(cacheDir, { recursive: true, force: true });
    renameSync(work, cacheDir);
    log(`built ${component.name} in ${Math.round(seconds)} s`);
    return { component, bin: binaries(component, cacheDir), built: true, seconds, cacheDir };
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

export interface BuildResult {
  readonly built: BuiltComponent[];
  /** Optional components that did not build, with the error. */
  readonly failed: { readonly component: Component; readonly error: string }[];
  /** Wall time of the whole build, downloads included; 0 when everything came from the cache. */
  readonly seconds: number;
}

/** Longest cold build first (docs/internals/e2e.md), so that the builds side by side end close together. */
const BUILD_ORDER = ['kubernetes', 'gitea', 'argo-rollouts', 'argo-cd', 'kwok', 'helm', 'argo-cd-sync', 'etcd'];
const DEFAULT_BUILD_JOBS = 2;

/** How many `go build`s run side by side: GLIDEPATH_E2E_BUILD_JOBS, else 2 (docs/internals/e2e.md measures both). */
export function buildJobs(): number {
  const value = process.env.GLIDEPATH_E2E_BUILD_JOBS;
  if (value === undefined || value === '') return DEFAULT_BUILD_JOBS;
  const jobs = Number(value);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 8)
    throw new E2eError(
      `GLIDEPATH_E2E_BUILD_JOBS=${value}: give a whole number from 1 to 8 (unset, it is ${DEFAULT_BUILD_JOBS})`,
    );
  return jobs;
}

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

function settle<T>(promise: Promise<T>): Promise<Outcome<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

function buildRank(component: Component): number {
  const rank = BUILD_ORDER.indexOf(component.name);
  return rank === -1 ? BUILD_ORDER.length : rank;
}

/**
 * Builds what the cache lacks. Every download starts at once (they wait on the network, not the CPU); the
 * compiles run `buildJobs()` at a time, longest first, each after the component whose Go build cache it reuses.
 */
export async function buildAll(log: (line: string) => void): Promise<BuildResult> {
  const go = goVersion();
  const jobs = buildJobs();
  const started = Date.now();
  const cached = new Map(COMPONENTS.map((component) => [component.name, fromCache(component, go)]));
  const queue = COMPONENTS.filter((c) => !cached.get(c.name)).sort((a, b) => buildRank(a) - buildRank(b));
  const building = new Set(queue.map((component) => component.name));
  const downloads = new Map(queue.map((component) => [component.name, settle(download(component))]));
  const outcomes = new Map<string, Promise<Outcome<BuiltComponent>>>();
  const finished = new Set<string>();
  const isReady = (c: Component): boolean =>
    c.buildAfter === undefined || !building.has(c.buildAfter) || finished.has(c.buildAfter);

  const worker = async (): Promise<void> => {
    while (queue.length) {
      const component = queue.splice(Math.max(0, queue.findIndex(isReady)), 1)[0]!;
      const outcome = (async (): Promise<Outcome<BuiltComponent>> => {
        if (component.buildAfter !== undefined) await outcomes.get(component.buildAfter);
        const downloaded = await downloads.get(component.name)!;
        return downloaded.ok ? settle(compile(component, go, log)) : downloaded;
      })();
      outcomes.set(component.name, outcome);
      await outcome;
      finished.add(component.name);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, worker));

  const seconds = building.size ? (Date.now() - started) / 1000 : 0;
  const result: BuildResult = { built: [], failed: [], seconds };
  for (const component of COMPONENTS) {
    const hit = cached.get(component.name);
    const outcome = hit ? { ok: true as const, value: hit } : await outcomes.get(component.name)!;
    if (outcome.ok) {
      result.built.push(outcome.value);
      continue;
    }
    if (!component.optional || !(outcome.error instanceof E2eError)) throw outcome.error;
    log(`${component.name} did not build; the scenarios that need it fail:\n${outcome.error.message}`);
    result.failed.push({ component, error: outcome.error.message });
  }
  return result;
}

/** What each binary prints about itself, e.g. `Kubernetes v1.28.15`. */
export function printedVersion(built: BuiltComponent): string {
  const [first] = Object.values(built.bin);
  const result = spawnSync(first!, [...built.component.versionArgs], { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`.trim();
}
