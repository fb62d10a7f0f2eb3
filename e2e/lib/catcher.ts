import type { Json } from './kube';
import { createServer, type Server } from 'node:http';

export interface CaughtRequest {
  readonly seq: number;
  readonly at: number;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  /** The body parsed as JSON, or undefined when it is not valid JSON. */
  readonly json: Json;
  /** The fields of an `application/x-www-form-urlencoded` body (what Slack's Web API takes), or undefined. */
  readonly form: Readonly<Record<string, string>> | undefined;
  /** The catcher answered 503 to it (see refuse). */
  readonly refused: boolean;
}

export type Match = (request: CaughtRequest) => boolean;

/** What the catcher answers to the requests of one answer() call. */
export interface Answer {
  readonly contentType: string;
  readonly body: (request: CaughtRequest) => string;
}

/**
 * The relay's stand-in on 127.0.0.1 (and the stand-in of a team's own services, at paths of their own): records every
 * request, answers 503 to the ones it is told to refuse, and `ok` or what answer() says to the others.
 */
export class Catcher {
  readonly requests: CaughtRequest[] = [];
  private readonly refusals = new Set<Match>();
  private readonly answers = new Map<Match, Answer>();
  private server: Server | undefined;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const draft = {
          seq: this.requests.length,
          at: Date.now(),
          method: req.method ?? '',
          path: req.url ?? '',
          headers: { ...req.headers },
          body,
          json,
          form:
            req.headers['content-type'] === 'application/x-www-form-urlencoded'
              ? Object.fromEntries(new URLSearchParams(body))
              : undefined,
          refused: false,
        };
        const refused = [...this.refusals].some((match) => match(draft));
        const request = { ...draft, refused };
        this.requests.push(request);
        const answer = [...this.answers].find(([match]) => match(request))?.[1];
        res.writeHead(refused ? 503 : 200, { 'Content-Type': answer?.contentType ?? 'text/plain' });
        res.end(refused ? 'refused by the e2e catcher\n' : (answer?.body(request) ?? 'ok\n'));
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.on('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  /** Refuse matching requests until the returned function is called. */
  refuse(match: Match): () => void {
    this.refusals.add(match);
    return () => this.refusals.delete(match);
  }

  /** Answer matching requests (that are not refused) with `answer` until the returned function is called. */
  answer(match: Match, answer: Answer): () => void {
    this.answers.set(match, answer);
    return () => this.answers.delete(match);
  }

  /** Facts (parsed JSON bodies) that were accepted and match. */
  facts(match: (fact: Json) => boolean, options: { includeRefused?: boolean; since?: number } = {}): CaughtRequest[] {
    return this.requests.filter(
      (r) =>
        r.json !== undefined && (options.includeRefused || !r.refused) && r.at >= (options.since ?? 0) && match(r.json),
    );
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }
}
