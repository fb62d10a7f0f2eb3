/** A failure the run explains itself: a missing tool, a port in use, an unreachable proxy. Printed without a stack. */
export class E2eError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'E2eError';
  }
}
