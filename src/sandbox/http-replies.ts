// How the sandbox answers over HTTP. The spec shows no bodies for 400/401/404/500, so every refusal
// uses the success shape with status "ERROR": a client that reads `data.error[].message/detail`
// leniently gets a readable reason whatever the status.
import type { ServerResponse } from 'node:http';

/** Machine-readable reasons in refusal bodies (`data.error[0].message`). */
export type RefusalReason =
  | 'UNAUTHORIZED'
  | 'BAD_REQUEST'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'UNSUPPORTED_CONTENT_TYPE'
  | 'MALFORMED_JSON'
  | 'INVALID_ENVELOPE'
  | 'TOO_MANY_ITEMS'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL_ERROR';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function refusalBody(status: number, message: RefusalReason, detail: string) {
  return { data: { code: status, success: 0, error: [{ message, detail }] }, status: 'ERROR' as const };
}

export function sendRefusal(res: ServerResponse, status: number, message: RefusalReason, detail: string, headers?: Record<string, string>): void {
  sendJson(res, status, refusalBody(status, message, detail), headers);
}

/** The one 401 of the sandbox, for its API routes and its /_sandbox/ endpoints alike. */
export function sendUnauthorized(res: ServerResponse): void {
  sendRefusal(res, 401, 'UNAUTHORIZED', 'missing or wrong x-api-key header');
}

/** `application/json`, with or without parameters such as charset; nothing else. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const media = header.split(';', 1)[0]!.trim().toLowerCase();
  return media === 'application/json';
}
