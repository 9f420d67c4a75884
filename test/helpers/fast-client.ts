// A client with tiny delays and timeouts, for the send tests, that keeps every event it emits.
import { afterEach } from 'vitest';
import { createApiClient, type ApiClient, type ApiClientOptions, type SendEvent, type SendRequest } from '../../src/send/index.js';

export const TEST_KEY = 'test-key-0123456789';

export function fastClient(baseUrl: string, overrides: Partial<ApiClientOptions> = {}): ApiClient & { events: SendEvent[] } {
  const events: SendEvent[] = [];
  const client = createApiClient({
    baseUrl,
    apiKey: TEST_KEY,
    env: {},
    ...overrides,
    retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 10_000, ...overrides.retry },
    timeouts: { connectMs: 1000, headersMs: 1000, bodyMs: 1000, attemptMs: 5000, ...overrides.timeouts },
    onEvent: (e) => {
      events.push(e);
      overrides.onEvent?.(e);
    },
  });
  return Object.assign(client, { events });
}

export function batch(overrides: Partial<SendRequest> = {}): SendRequest {
  const batchId = overrides.batchId ?? 'b-0001';
  return {
    resource: 'deal',
    method: 'post',
    batchId,
    body: JSON.stringify({ batchId, source: 'test', items: [{ externalId: 'd1' }] }),
    itemCount: 1,
    ...overrides,
  };
}

/** A `fastClient` factory for a test file: every client it made is closed after each test. */
export function closedAfterEach(): typeof fastClient {
  const clients: ApiClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  return (...args) => {
    const c = fastClient(...args);
    clients.push(c);
    return c;
  };
}
