// Reads a response body leniently and within a bound: error bodies are for humans, and a server
// that streams megabytes of HTML into an error page must not fill memory.
import type { Readable } from 'node:stream';

/** Error bodies are kept up to this size for the report. */
export const ERROR_BODY_LIMIT = 2048;
/** A batch response is a few hundred bytes per error item; anything beyond this is not one. */
export const OK_BODY_LIMIT = 4 * 1024 * 1024;

export interface BoundedBody {
  /** UTF-8 with replacement characters for invalid bytes; never throws on encoding. */
  text: string;
  truncated: boolean;
}

/** Network errors while reading (socket closed, body timeout) propagate: they are retryable. */
export async function readBounded(body: Readable, limit: number): Promise<BoundedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(buf);
    size += buf.length;
    if (size > limit) {
      // stop reading; the connection is dropped instead of drained
      body.destroy();
      return { text: Buffer.concat(chunks).subarray(0, limit).toString('utf8'), truncated: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

/** Drops a body we do not need, without letting an error in it escape. */
export function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}
