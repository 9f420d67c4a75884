// The send stage: the only place batch-sync speaks HTTP.
export { createApiClient, type ApiClient } from './api-client.js';
export type { ApiClientOptions, SendEvent, SendRequest } from './types.js';
