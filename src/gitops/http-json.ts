/**
 * JSON over HTTP with fetch: retries 5xx answers and network errors with a growing back-off, and waits out short rate
 * limits.
 */

export interface RetryPolicy {
  /** Retries of a request that failed with a 5xx or a network error; default 3. */
  readonly retries?: number;
  /** Unit of the back-off (retry n waits n² units) and of Retry-After seconds; default 1000 ms. Tests use 1. */
  readonly retryDelayMs?: number;
  /** Rate-limited (429) requests are retried this many times; default 2. */
  readonly rateLimitRetries?: number;
  /** A rate limit that resets later than this is not waited for; default 120 s. */
  readonly maxRateLimitWaitSeconds?: number;
  /** Gives up on one request after this long; default 60 s. */
  readonly timeoutMs?: number;
}

export interface JsonAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly data: unknown;
}

/** The request could not be sent or answered (DNS, refused, reset, timeout), after the retries. */
export class NetworkFailure extends Error {}

export async function requestJson(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown },
  policy: RetryPolicy = {},
): Promise<JsonAnswer> {
  const unit = policy.retryDelayMs ?? 1000;
  const retries = policy.retries ?? 3;
  const rateLimitRetries = policy.rateLimitRetries ?? 2;
  let failures = 0;
  let limited = 0;
  for (;;) {
    let answer: JsonAnswer | undefined;
    let networkError: unknown;
    try {
      const response = await fetch(url, {
        method: init.method,
        headers: {
          accept: 'application/json',
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
        signal: AbortSignal.timeout(policy.timeoutMs ?? 60_000),
        redirect: 'error',
      });
      const text = await response.text();
      answer = { status: response.status, headers: response.headers, data: parseJson(text) };
    } catch (error) {
      networkError = error;
    }
    if (answer !== undefined && answer.status === 429 && limited < rateLimitRetries) {
      const wait = Number(answer.headers.get('retry-after') ?? 1);
      if (Number.isFinite(wait) && wait <= (policy.maxRateLimitWaitSeconds ?? 120)) {
        limited++;
        await sleep(Math.max(0, wait) * unit);
        continue;
      }
    }
    const retryable = answer === undefined || answer.status >= 500;
    if (!retryable) return answer!;
    if (failures >= retries) {
      if (answer !== undefined) return answer;
      throw new NetworkFailure(describeNetworkError(networkError));
    }
    failures++;
    await sleep(failures * failures * unit);
  }
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause?.code !== undefined ? `${message}: ${cause.code}` : (cause?.message ?? message);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
