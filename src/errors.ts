/**
 * A failure the person running glidepath can act on: what went wrong (`message`) and what to do next (`fix`).
 * `badInput` says whether the fix is in the command line or a cluster file (exit code 2) rather than in the
 * environment: the network, the remote, the file system (exit code 1).
 */
export class GlidepathError extends Error {
  constructor(
    message: string,
    readonly fix: string,
    readonly badInput: boolean = true,
  ) {
    super(message);
    this.name = 'GlidepathError';
  }

  /** The lines the CLI prints on stderr. */
  report(): string[] {
    return [`error: ${this.message}`, `fix: ${this.fix}`];
  }
}
