/**
 * Builds a Go program of a module in this repository once, into a cache outside the clone, and returns its path.
 *
 *   import { buildGoTool } from './tools/go-tool.mjs';
 *   const binary = buildGoTool('tools/judges', './cmd/cronjudge');
 *   const judge = buildGoTool('tools/exprjudge', '.', { modfile: 'modfiles/x.mod', tags: ['antonmedv'] });
 *
 *   node tools/go-tool.mjs <module folder> <package> [<modfile>] [<tag,tag>]   # prints the binary's path
 *
 * `modfile` builds against another go.mod of the module (`go build -modfile`, with its .sum beside it): one
 * module path at several versions cannot share one build. `toolchain` builds with that Go release instead of the
 * machine's (GOTOOLCHAIN, fetched through the module proxy once), for a judge of what an older Go's library says.
 * The cache key hashes the go.mod and go.sum in use, every .go file, the package, the tags and the Go toolchain
 * (`go env GOVERSION GOOS GOARCH`), so a second run builds nothing and any change rebuilds. Binaries live in
 * $GLIDEPATH_TOOLS_CACHE, else $XDG_CACHE_HOME/glidepath-tools, else ~/.cache/glidepath-tools: <key>/<name>.
 * Each build writes its own temporary file and renames it into place, so concurrent builds are safe.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export class GoToolError extends Error {}

/**
 * The path of the built binary of package `pkg` of the Go module in `toolDir`.
 * options.modfile: a go.mod to use instead of toolDir/go.mod (relative to toolDir); options.tags: build tags;
 * options.toolchain: a Go release to build with (e.g. "go1.21.13").
 */
export function buildGoTool(toolDir, pkg, options = {}) {
  const { binary, moduleDir, modfile, tags, toolchain } = locate(toolDir, pkg, options);
  if (existsSync(binary)) return binary;

  mkdirSync(dirname(binary), { recursive: true });
  const partial = `${binary}.${process.pid}.${Date.now()}.tmp`;
  const flags = [
    '-mod=readonly',
    '-trimpath',
    ...(options.modfile ? [`-modfile=${modfile}`] : []),
    ...(tags.length ? ['-tags', tags.join(',')] : []),
  ];
  try {
    // -mod=readonly: a go.sum that misses an entry is an error here, not a silent edit of the committed file.
    runGo(
      ['build', ...flags, '-o', partial, pkg],
      moduleDir,
      `build ${pkg} of ${toolDir}${options.modfile ? ` with ${options.modfile}` : ''}`,
      toolchain,
    );
    renameSync(partial, binary);
  } finally {
    rmSync(partial, { force: true });
  }
  return binary;
}

/** Where buildGoTool puts (or has put) the binary: it is built when this path does not exist yet. */
export function goToolBinary(toolDir, pkg, options = {}) {
  return locate(toolDir, pkg, options).binary;
}

function locate(toolDir, pkg, options) {
  const moduleDir = resolve(toolDir);
  if (!existsSync(join(moduleDir, 'go.mod')))
    throw new GoToolError(`go-tool: ${moduleDir} has no go.mod; pass the folder of a Go module`);
  const modfile = options.modfile ? resolve(moduleDir, options.modfile) : join(moduleDir, 'go.mod');
  if (!existsSync(modfile)) throw new GoToolError(`go-tool: ${relative(process.cwd(), modfile)} does not exist`);
  const tags = [...(options.tags ?? [])].sort();
  const { toolchain } = options;
  const goVersion = runGo(
    ['env', 'GOVERSION', 'GOOS', 'GOARCH'],
    moduleDir,
    `read the Go toolchain for ${toolDir}`,
    toolchain,
  ).trim();
  const key = cacheKey(moduleDir, pkg, modfile, tags, goVersion);
  const name = (pkg === '.' ? basename(moduleDir) : basename(pkg)) + (process.platform === 'win32' ? '.exe' : '');
  return { binary: join(goToolCache(), key, name), moduleDir, modfile, tags, toolchain };
}

export function goToolCache() {
  if (process.env.GLIDEPATH_TOOLS_CACHE) return resolve(process.env.GLIDEPATH_TOOLS_CACHE);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'glidepath-tools');
}

function cacheKey(moduleDir, pkg, modfile, tags, toolchain) {
  const hash = createHash('sha256').update(`${pkg}\0${tags.join(',')}\0${toolchain}\0`);
  const sumfile = modfile.replace(/\.mod$/, '.sum');
  for (const file of [modfile, ...(existsSync(sumfile) ? [sumfile] : []), ...goFiles(moduleDir)]) {
    hash
      .update(`${relative(moduleDir, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

/** The .go files of the module, in a fixed order. */
function goFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...goFiles(path));
    else if (entry.name.endsWith('.go')) files.push(path);
  }
  return files;
}

/** Runs go in `cwd`; a failure is a GoToolError with Go's output and a hint for the usual causes. */
export function runGo(args, cwd, what, toolchain) {
  const env = { ...process.env, GOWORK: 'off', ...(toolchain ? { GOTOOLCHAIN: toolchain } : {}) };
  const result = spawnSync('go', args, { cwd, encoding: 'utf8', env });
  if (result.error?.code === 'ENOENT') {
    throw new GoToolError(`go-tool: cannot ${what}: Go is not installed (no "go" on PATH); install Go 1.22 or later`);
  }
  if (result.error) throw new GoToolError(`go-tool: cannot ${what}: ${result.error.message}`);
  if (result.status !== 0) {
    const output = result.stderr.trim();
    const folder = relative(process.cwd(), cwd) || '.';
    let hint = 'see the Go output above';
    if (/missing go\.sum entry|updates to go\.mod needed/.test(output)) {
      hint =
        `go.mod or go.sum of ${folder} is incomplete; run "go mod tidy" there (for a -modfile build, regenerate ` +
        `that modfile and its .sum) and commit both`;
    } else if (
      /dial tcp|no such host|connection refused|i\/o timeout|proxyconnect|module lookup disabled|GOPROXY=off/.test(
        output,
      )
    ) {
      hint =
        `the Go modules could not be downloaded ` +
        `(GOPROXY=${process.env.GOPROXY || 'default, proxy.golang.org'}); allow access to ` +
        `the module proxy, or fill the module cache where it is reachable (cd ${folder} && go mod download)`;
    }
    throw new GoToolError(`${output}\ngo-tool: cannot ${what}: ${hint}`);
  }
  return result.stdout;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [toolDir, pkg, modfile, tags] = process.argv.slice(2);
  if (!toolDir || !pkg) {
    console.error(
      'usage: node tools/go-tool.mjs <module folder> <package> [<modfile>] [<tag,tag>], e.g. node ' +
        'tools/go-tool.mjs tools/exprjudge .',
    );
    process.exit(2);
  }
  try {
    console.log(
      buildGoTool(toolDir, pkg, { ...(modfile ? { modfile } : {}), ...(tags ? { tags: tags.split(',') } : {}) }),
    );
  } catch (error) {
    if (!(error instanceof GoToolError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
