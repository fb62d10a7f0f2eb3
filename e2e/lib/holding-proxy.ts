/**
 * A TLS proxy in front of the API server that can hold one request until the scenario lets it go: the prune
 * program's write of a Rollout is held while the controller writes the same Rollout, so that the program's patch
 * reaches the API server with a resourceVersion that is no longer current (409 Conflict), on cue. Its certificate
 * is a throwaway self-signed one for 127.0.0.1 (openssl), which the program is given as its CA.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import { join } from 'node:path';

export interface HeldRequest {
  readonly method: string;
  readonly path: string;
  /** Sends the held request on to the API server. */
  readonly release: () => void;
}

export interface ForwardedRequest {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

export class HoldingProxy {
  readonly forwarded: ForwardedRequest[] = [];
  private server: Server | undefined;
  private holdNext: ((method: string, path: string) => boolean) | undefined;
  private heldWaiter: ((held: HeldRequest) => void) | undefined;
  port = 0;
  caFile = '';

  constructor(
    private readonly upstream: string,
    private readonly upstreamCa: string,
    private readonly dir: string,
  ) {}

  async start(): Promise<void> {
    const key = join(this.dir, 'proxy.key');
    this.caFile = join(this.dir, 'proxy.crt');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        this.caFile,
      ],
      { stdio: 'ignore' },
    );
    this.server = createServer({ key: readFileSync(key), cert: readFileSync(this.caFile) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const method = req.method ?? 'GET';
        const path = req.url ?? '/';
        const forward = () => {
          const url = new URL(path, this.upstream);
          const upstream = request(
            url,
            { method, headers: { ...req.headers, host: url.host }, ca: this.upstreamCa },
            (answer) => {
              this.forwarded.push({ method, path, status: answer.statusCode ?? 0 });
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              answer.pipe(res);
            },
          );
          upstream.on('error', (error) => {
            res.writeHead(502);
            res.end(String(error));
          });
          upstream.end(Buffer.concat(chunks));
        };
        if (this.holdNext?.(method, path)) {
          this.holdNext = undefined;
          this.heldWaiter?.({ method, path, release: forward });
          return;
        }
        forward();
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.on('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  /** Holds the next request that `match` selects; resolves with it once it arrives. */
  hold(match: (method: string, path: string) => boolean): Promise<HeldRequest> {
    this.holdNext = match;
    return new Promise((resolve) => (this.heldWaiter = resolve));
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }
}
