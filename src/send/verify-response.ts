// Decides whether a 2xx body proves the batch was received: JSON that fits the contract's batchResponse.
import { batchResponse, type BatchResponse } from '../contract/envelope.js';

export type Verification = { ok: true; response: BatchResponse } | { ok: false; reason: string };

export function verifyResponse(text: string, truncated: boolean, contentType: string | undefined): Verification {
  if (truncated) return { ok: false, reason: 'the response body is far larger than a batch result' };
  if (text.trim() === '') return { ok: false, reason: 'the response body is empty' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const looksHtml = /^\s*</.test(text) || /html/i.test(contentType ?? '');
    // an HTML page behind a 200 is typically a proxy's or a captive portal's, not the API's
    return { ok: false, reason: looksHtml ? "the response is HTML, not the API's JSON" : 'the response is not valid JSON' };
  }
  const parsed = batchResponse.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first ? `${first.path.join('.') || '(root)'}: ${first.message}` : 'unknown';
    return { ok: false, reason: `the response JSON is not a batch result (${where})` };
  }
  return { ok: true, response: parsed.data as BatchResponse };
}
