/** HTTP servers of the stand-ins on 127.0.0.1 with a random port, and a port nothing listens on. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `handle` until closed; a handler that throws answers 500 with the error. */
export async function serveOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
): Promise<LoopbackServer> {
  const server = createServer((req, res) => {
    Promise.resolve(handle(req, res)).catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** One request to a JSON API stand-in: what was asked, and how to answer. */
export interface JsonExchange {
  /** The path as sent, query included, not decoded. */
  readonly raw: string;
  readonly url: URL;
  readonly method: string;
  readonly body: Record<string, unknown> | undefined;
  send(status: number, data: unknown, headers?: Record<string, string>): void;
}

/** Reads the request's JSON body; `send` answers with JSON of `contentType`. */
export async function jsonExchange(
  req: IncomingMessage,
  res: ServerResponse,
  contentType: string,
): Promise<JsonExchange> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const raw = req.url ?? '/';
  return {
    raw,
    url: new URL(raw, 'http://stand-in'),
    method: req.method ?? 'GET',
    body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>),
    send(status, data, headers = {}) {
      res.writeHead(status, { 'content-type': contentType, ...headers });
      res.end(JSON.stringify(data));
    },
  };
}

/** A port on 127.0.0.1 that was free a moment ago: connecting to it is refused (the network is "down"). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A TCP server on 127.0.0.1 that accepts and then, with `trickle`, answers an HTTP request with headers and a body
 * that never ends, one byte each `trickle` ms; without it, it says nothing at all.
 */
export async function hangingServer(trickle?: number): Promise<{ readonly url: string; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    if (trickle === undefined) return;
    socket.once('data', () => {
      socket.write(
        'HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\nContent-Length: ' +
          '1000000\r\n\r\n',
      );
      const timer = setInterval(() => socket.write('0'), trickle);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
