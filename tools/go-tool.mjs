/**
 * Builds a Go program of a module in this repository once, into a cache outside the clone, and returns its path.
 *
 *   import { buildGoTool } from './tools/go-tool.mjs';
 *   const binary = buildGoTool('tools/judges', './cmd/cronjudge');
 *
 *   node tools/go-tool.mjs tools/judges ./cmd/cronjudge   # prints the binary's path
 *
 * The cache key is a hash of the module's go.mod, go.sum and every .go file, the package and the Go toolchain
 * (`go env GOVERSION GOOS GOARCH`), so a second run builds nothing and any change rebuilds. Binaries live in
 * $GLIDEPATH_TOOLS_CACHE, else $XDG_CACHE_HOME/glidepath-tools, else ~/.cache/glidepath-tools: <key>/<name>.
 * Concurrent builds are safe: each writes its own temporary file and renames it into place.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export class GoToolError extends Error {}

/** The path of the built binary of package `pkg` (e.g. "./cmd/cronjudge") of the Go module in `toolDir`. */
export function buildGoTool(toolDir, pkg) {
  const moduleDir = resolve(toolDir);
  if (!existsSync(join(moduleDir, 'go.mod'))) throw new GoToolError(`go-tool: ${moduleDir} has no go.mod; pass the folder of a Go module`);
  const toolchain = runGo(['env', 'GOVERSION', 'GOOS', 'GOARCH'], moduleDir, `read the Go toolchain for ${toolDir}`).trim();
  const key = cacheKey(moduleDir, pkg, toolchain);
  const binary = join(cacheRoot(), key, basename(pkg) + (process.platform === 'win32' ? '.exe' : ''));
  if (existsSync(binary)) return binary;

  mkdirSync(join(cacheRoot(), key), { recursive: true });
  const partial = `${binary}.${process.pid}.${Date.now()}.tmp`;
  try {
    // -mod=readonly: a go.sum that misses an entry is an error here, not a silent edit of the committed file.
    runGo(['build', '-mod=readonly', '-trimpath', '-o', partial, pkg], moduleDir, `build ${pkg} of ${toolDir}`);
    renameSync(partial, binary);
  } finally {
    rmSync(partial, { force: true });
  }
  return binary;
}

function cacheRoot() {
  if (process.env.GLIDEPATH_TOOLS_CACHE) return resolve(process.env.GLIDEPATH_TOOLS_CACHE);
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'glidepath-tools');
}

function cacheKey(moduleDir, pkg, toolchain) {
  const hash = createHash('sha256').update(`${pkg}\0${toolchain}\0`);
  for (const file of moduleFiles(moduleDir)) {
    hash.update(`${relative(moduleDir, file)}\0`).update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

/** go.mod, go.sum and the .go files of the module, in a fixed order. */
function moduleFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...moduleFiles(path));
    else if (entry.name.endsWith('.go') || entry.name === 'go.mod' || entry.name === 'go.sum') files.push(path);
  }
  return files;
}

function runGo(args, cwd, what) {
  const result = spawnSync('go', args, { cwd, encoding: 'utf8', env: { ...process.env, GOWORK: 'off' } });
  if (result.error?.code === 'ENOENT') {
    throw new GoToolError(`go-tool: cannot ${what}: Go is not installed (no "go" on PATH); install Go 1.22 or later`);
  }
  if (result.error) throw new GoToolError(`go-tool: cannot ${what}: ${result.error.message}`);
  if (result.status !== 0) {
    const output = result.stderr.trim();
    const folder = relative(process.cwd(), cwd) || '.';
    let hint = 'see the Go output above';
    if (/missing go\.sum entry|updates to go\.mod needed/.test(output)) {
      hint = `go.mod or go.sum of ${folder} is incomplete; run "go mod tidy" there and commit both`;
    } else if (/dial tcp|no such host|connection refused|i\/o timeout|proxyconnect|module lookup disabled|GOPROXY=off/.test(output)) {
      hint =
        `the Go modules could not be downloaded (GOPROXY=${process.env.GOPROXY || 'default, proxy.golang.org'}); allow access to ` +
        `the module proxy, or fill the module cache where it is reachable (cd ${folder} && go mod download)`;
    }
    throw new GoToolError(`${output}\ngo-tool: cannot ${what}: ${hint}`);
  }
  return result.stdout;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [toolDir, pkg] = process.argv.slice(2);
  if (!toolDir || !pkg) {
    console.error('usage: node tools/go-tool.mjs <module folder> <package>, e.g. node tools/go-tool.mjs tools/judges ./cmd/cronjudge');
    process.exit(2);
  }
  try {
    console.log(buildGoTool(toolDir, pkg));
  } catch (error) {
    if (!(error instanceof GoToolError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
