// The send stage: the only place batch-sync speaks HTTP.
export { createApiClient, type ApiClient } from './api-client.js';
export { DEFAULT_CONCURRENCY, DEFAULT_RETRY, DEFAULT_TIMEOUTS, backoffDelay, parseRetryAfter } from './retry-policy.js';
export type { ApiClientOptions, AttemptFailure, RetryPolicy, SendEvent, SendRequest, SendResult, Timeouts } from './types.js';
