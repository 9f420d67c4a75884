// One of the spec's eight operations, from the key check to the answer. The order of checks is the
// order a real service would afford them: cheap refusals (key, content type, size) before parsing,
// parsing before faults, so that every fault is logged with the batchId a retry must repeat.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { batchEnvelope, type DataError } from '../contract/envelope.js';
import { formatProblem, toFieldProblems } from '../contract/issues.js';
import type { Method, Resource } from '../contract/resources.js';
import type { AnswerStyle } from '../contract/answer-styles.js';
import { applyBatch } from './apply-batch.js';
import type { BatchLogEntry } from './batch-history.js';
import { isJsonContentType, sendJson, sendRefusal, sendUnauthorized, type RefusalReason } from './http-replies.js';
import { firstInvalidUtf8 } from '../read/utf8.js';
import { readBody } from './read-body.js';
import type { SandboxState } from './sandbox-state.js';

export interface BatchRouteConfig {
  checkKey: (provided: string | string[] | undefined) => boolean;
  maxItems: number;
  maxBodyBytes: number;
  answers: AnswerStyle;
  /** Send RateLimit and RateLimit-Policy with every answer to a batch. */
  rateLimitHeaders: boolean;
  /** Accept an activity whose owner is not a sales profile (by default refused, as a deal's). */
  allowUnknownActivityOwners: boolean;
  onBatch?: (entry: BatchLogEntry) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function handleBatch(
  req: IncomingMessage,
  res: ServerResponse,
  route: { resource: Resource; method: Method },
  state: SandboxState,
  config: BatchRouteConfig,
): Promise<number> {
  const refuse = (status: number, reason: RefusalReason, detail: string, headers?: Record<string, string>) => {
    sendRefusal(res, status, reason, detail, headers);
    return status;
  };
  if (!config.checkKey(req.headers['x-api-key'])) {
    sendUnauthorized(res);
    return 401;
  }
  if (state.latencyMs > 0) await sleep(state.latencyMs);
  const contentType = req.headers['content-type'];
  if (!isJsonContentType(contentType)) {
    return refuse(400, 'UNSUPPORTED_CONTENT_TYPE', `Content-Type must be application/json, got ${contentType ? JSON.stringify(contentType) : 'none'}`);
  }

  const body = await readBody(req, config.maxBodyBytes);
  if (body.kind === 'aborted') {
    res.destroy();
    return 0;
  }
  if (body.kind === 'too-large') return refuse(413, 'PAYLOAD_TOO_LARGE', tooLarge(body.limit));

  // JSON text is UTF-8 (RFC 8259): decoding bad bytes to U+FFFD would store what nobody sent
  if (!isUtf8(body.body)) {
    const at = firstInvalidUtf8(body.body);
    const byte = body.body[at]!.toString(16).toUpperCase().padStart(2, '0');
    return refuse(400, 'MALFORMED_JSON', `body is not valid UTF-8 (byte 0x${byte} at offset ${at}); JSON text must be UTF-8`);
  }
  let json: unknown;
  try {
    json = JSON.parse(body.body.toString('utf8'));
  } catch (error) {
    return refuse(400, 'MALFORMED_JSON', `body is not valid JSON: ${(error as Error).message}`);
  }
  const envelope = batchEnvelope.safeParse(json);
  if (!envelope.success) {
    const problems = toFieldProblems(envelope.error.issues, 'server').map(formatProblem).join('; ');
    return refuse(400, 'INVALID_ENVELOPE', `the batch envelope {batchId, source, items} is broken: ${problems}`);
  }

  const { batchId, source, items } = envelope.data;
  const log = (status: number, answer?: { code: number; error: unknown[] }, accepted = 0) => {
    const entry = state.history.add({
      method: route.method === 'post' ? 'POST' : 'PATCH',
      resource: route.resource,
      batchId,
      source,
      items: items.length,
      accepted,
      errors: answer?.error.length ?? 0,
      status,
      ...(answer ? { code: answer.code } : {}),
    });
    config.onBatch?.(entry);
    return status;
  };

  const fault = state.nextFault();
  const limits = config.rateLimitHeaders ? state.rateHeaders() : {};
  // a batch refused whole: its answer, and its reason kept for the sandbox's page
  const refuseBatch = (status: number, reason: RefusalReason, detail: string, headers?: Record<string, string>) => {
    refuse(status, reason, detail, headers);
    log(status);
    state.refusals.addBatch(state.history.lastSeq(), { message: reason, detail });
    return status;
  };
  if (fault?.status === 429) {
    return refuseBatch(429, 'RATE_LIMITED', `more requests per second than the sandbox allows; retry after ${fault.retryAfterSeconds}s`, {
      'retry-after': String(fault.retryAfterSeconds),
      ...limits,
    });
  }
  if (fault?.status === 503) return refuseBatch(503, 'UNAVAILABLE', 'the sandbox is playing an outage: nothing of this batch was applied; retry it');
  if (fault?.status === 500) return refuseBatch(500, 'INTERNAL_ERROR', 'injected fault (--fail-rate): nothing of this batch was applied; retry it');
  if (items.length > config.maxItems) {
    return refuseBatch(400, 'TOO_MANY_ITEMS', `the batch has ${items.length} items; the sandbox accepts at most ${config.maxItems}`);
  }

  const queued = state.serviceDelayMs(items.length);
  if (queued > 0) await sleep(queued);
  const { answer, accepted, errorItems } = applyBatch(state.store, route.resource, route.method, items, config.answers, config.allowUnknownActivityOwners);
  sendJson(res, 200, answer, limits);
  log(200, answer.data, accepted);
  keepRefusedItems(
    state,
    state.history.lastSeq(),
    { batchId, method: route.method === 'post' ? 'POST' : 'PATCH', resource: route.resource },
    items,
    answer.data.error,
    errorItems,
  );
  return 200;
}

/** Each refused item once, with all its problems, for the sandbox's page. */
function keepRefusedItems(
  state: SandboxState,
  seq: number,
  batch: { batchId: string; method: 'POST' | 'PATCH'; resource: Resource },
  items: readonly unknown[],
  errors: readonly DataError[],
  errorItems: readonly number[],
): void {
  let at = 0;
  while (at < errors.length) {
    const index = errorItems[at]!;
    const problems: DataError[] = [];
    while (at < errors.length && errorItems[at] === index) problems.push(errors[at++]!);
    state.refusals.addItem({ seq, ...batch, index, problems }, items[index]);
  }
}

const MIB = 1024 * 1024;

/** The 413's detail: the limit, that it is the sandbox's own choice, and how to raise it. */
function tooLarge(limit: number): string {
  const size = limit % MIB === 0 ? `${limit / MIB} MiB (${limit} bytes; ` : `${limit} bytes (`;
  return `body is over the sandbox's limit of ${size}the API's spec states none): send fewer items per batch, or raise the limit with --max-body-bytes`;
}
