/**
 * What the engine accepts but this model does not evaluate (a template function it lacks, an expression form it
 * cannot read, a service other than webhook's body). Never an engine refusal: the real engine is one command away.
 */
export const NOTIFCHECK_POINTER = 'npm run notifcheck runs the real engine on it';

export class NotModelledError extends Error {
  constructor(what: string) {
    super(`the engine model does not cover ${what} (the engine accepts it); ${NOTIFCHECK_POINTER}`);
    this.name = 'NotModelledError';
  }
}
