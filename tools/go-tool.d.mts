export class GoToolError extends Error {}
export interface GoToolOptions {
  /** A go.mod to build with instead of the module's (relative to the module folder); its .sum sits beside it. */
  readonly modfile?: string;
  readonly tags?: readonly string[];
  /** A Go release to build with instead of the machine's (GOTOOLCHAIN), e.g. "go1.21.13". */
  readonly toolchain?: string;
}
/** The path of the built binary of package `pkg` (e.g. "./cmd/cronjudge") of the Go module in `toolDir`. */
export function buildGoTool(toolDir: string, pkg: string, options?: GoToolOptions): string;
export function goToolBinary(toolDir: string, pkg: string, options?: GoToolOptions): string;
export function goToolCache(): string;
export function runGo(args: readonly string[], cwd: string, what: string, toolchain?: string): string;
