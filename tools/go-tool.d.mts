export class GoToolError extends Error {}
/** The path of the built binary of package `pkg` (e.g. "./cmd/cronjudge") of the Go module in `toolDir`. */
export function buildGoTool(toolDir: string, pkg: string): string;
