// Endpoints outside the spec's paths, for tests and curious humans: what the sandbox holds and what
// it was sent. They need no API key (the sandbox's data is test data) and are never rate limited.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseResource } from '../contract/resources.js';
import { sendJson, sendRefusal } from './http-replies.js';
import type { SandboxState } from './sandbox-state.js';

export const INSPECT_PREFIX = '/_sandbox/';

export function handleInspect(req: IncomingMessage, res: ServerResponse, path: string, state: SandboxState): void {
  const rest = path.slice(INSPECT_PREFIX.length);
  const method = req.method ?? 'GET';

  if (method === 'GET' && rest.startsWith('records/')) {
    const name = safeDecode(rest.slice('records/'.length));
    const resource = parseResource(name);
    if (!resource) return sendRefusal(res, 404, 'NOT_FOUND', `unknown resource "${name}"; use deals, activities, account or sales-profile`);
    const records = state.records(resource);
    return sendJson(res, 200, { resource, count: records.length, records });
  }
  if (method === 'GET' && rest === 'batches') return sendJson(res, 200, { batches: state.batches() });
  if (method === 'GET' && rest === 'stats') return sendJson(res, 200, state.stats());
  if (method === 'POST' && rest === 'reset') {
    state.reset();
    return sendJson(res, 200, { reset: true });
  }
  sendRefusal(
    res,
    404,
    'NOT_FOUND',
    `${method} ${path} is not a sandbox endpoint; try GET /_sandbox/records/<resource>, /_sandbox/batches, /_sandbox/stats or POST /_sandbox/reset`,
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
