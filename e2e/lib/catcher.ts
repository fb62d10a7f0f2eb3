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
  /** The catcher answered 503 to it (see refuse). */
  readonly refused: boolean;
}

export type Match = (request: CaughtRequest) => boolean;

/** The relay's stand-in on 127.0.0.1: records every request, and answers 503 to the ones it is told to refuse. */
export class Catcher {
  readonly requests: CaughtRequest[] = [];
  private readonly refusals = new Set<Match>();
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
          refused: false,
        };
        const refused = [...this.refusals].some((match) => match(draft));
        this.requests.push({ ...draft, refused });
        res.writeHead(refused ? 503 : 200, { 'Content-Type': 'text/plain' });
        res.end(refused ? 'refused by the e2e catcher\n' : 'ok\n');
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
