/**
 * One HTTP exchange with a forge API through fetch: no redirect followed (a 3xx comes back as it is), a timeout, and
 * a cap on the answer's size. The rules around it (origin, retries, pages, deadline) are the ForgeClient's.
 */

export interface RetryPolicy {
  /** Retries of a request that failed with a 5xx or a network error; default 3. */
  readonly retries?: number;
  /** Unit of the back-off (retry n waits n² units) and of Retry-After seconds; default 1000 ms. Tests use 1. */
  readonly retryDelayMs?: number;
  /** Rate-limited requests are retried this many times; default 2. */
  readonly rateLimitRetries?: number;
  /** A rate limit that resets later than this is not waited for; default 120 s. */
  readonly maxRateLimitWaitSeconds?: number;
  /** Gives up on one request after this long; default 60 s. */
  readonly timeoutMs?: number;
  /** Every request of the run to one API ends by this long after the first; default 15 minutes. */
  readonly deadlineMs?: number;
  /** Pages read of one listing at most; default 100. */
  readonly maxPages?: number;
  /** Spacing between write requests; default the provider's (GitHub asks for 1 s). */
  readonly writeSpacingMs?: number;
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** The request could not be sent or answered (DNS, refused, reset, timeout). */
export class NetworkFailure extends Error {}

/** The answer's body was larger than the cap. */
export class OversizedAnswer extends Error {
  constructor(readonly limit: number) {
    super(`an answer larger than ${limit / 1024 / 1024} MiB`);
  }
}

/** The largest answer read: a listing page of 100 entries is well under 1 MiB. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export async function exchange(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  timeoutMs: number,
  maxBytes: number = MAX_ANSWER_BYTES,
): Promise<HttpAnswer> {
  let response: Response;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    response = await fetch(url, {
      method: init.method,
      headers: {
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      signal,
      // A redirect is the client's to judge: fetch would replay the token to any origin, and a POST as a GET.
      redirect: 'manual',
    });
  } catch (error) {
    throw new NetworkFailure(describeNetworkError(error));
  }
  try {
    return { status: response.status, headers: response.headers, text: await readCapped(response, maxBytes) };
  } catch (error) {
    if (error instanceof OversizedAnswer) throw error;
    throw new NetworkFailure(describeNetworkError(error));
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new OversizedAnswer(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause?.code !== undefined ? `${message}: ${cause.code}` : (cause?.message ?? message);
}
