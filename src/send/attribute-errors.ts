// What a batch's answer proves about each of its items. The spec does not say how `data.error`
// elements relate to items, nor what `data.code` and `data.success` mean; the answers profile
// (answers.ts) says what the user's API does. An element is put on an item only when it names it
// unambiguously (a leading `items[3]`, or the one leading `externalId=X` label); what cannot be
// placed is never guessed: the batch is then unresolved (UNVERIFIED, or isolated). Pure: no I/O.
import { redact } from '../redact.js';
import { shortList, shorten } from '../shorten.js';
import type { AnswersProfile } from './answers.js';

interface DataErrorElement {
  message: string;
  detail: string;
}

export type AnswerReading =
  /** status or data.code says the batch failed: nothing may be counted accepted. */
  | { kind: 'failed'; reason: string }
  /** The answer is broken (an element of another shape, an index past the batch, success not a count). */
  | { kind: 'unverifiable'; reason: string }
  /** The answer is sound but does not say which items its errors are about. */
  | { kind: 'unresolved'; reason: string }
  /** Every item's verdict: its own errors (rejected) or none (accepted); warnings name no item. */
  | { kind: 'read'; perItem: Map<number, DataErrorElement[]>; warnings: DataErrorElement[] };

export interface BatchAnswerData {
  data: { code: number; success: unknown; error: readonly unknown[] };
  status: string;
}

const LEADING_INDEX = /^\s*items\[(\d+)\]\s*/;
const LEADING_LABEL = /^externalId\s*=\s*/;
const ID_END = /^(?:$|[\s:,;])/;

type Named = { index: number } | { pastBatch: number } | { ambiguous: true } | undefined;

/**
 * The item a text names at its start: `items[3]`, `externalId=X`, or both (they must agree). An id
 * is compared whole against the batch's ids, the longest that fits: "ACME" is not read out of
 * `externalId=ACME 2:`. Anything later in the text (another label, a bare id) is not looked at: it
 * is usually the OTHER item a message is about ("same name as ACC-2").
 */
function leadingItem(text: string, ids: readonly (string | undefined)[]): Named {
  let rest = text;
  let index: number | undefined;
  const indexMatch = LEADING_INDEX.exec(rest);
  if (indexMatch) {
    index = Number(indexMatch[1]);
    if (index >= ids.length) return { pastBatch: index };
    rest = rest.slice(indexMatch[0].length);
  }
  const label = LEADING_LABEL.exec(rest);
  if (!label) return index === undefined ? undefined : { index };
  rest = rest.slice(label[0].length);
  // quoted (`externalId="A 1"`), else as it is — an id may itself be or begin with a `"`
  const byId = quotedId(rest, ids) ?? rawId(rest, ids);
  // `externalId=?` is how an item without an id is labelled: the index alone locates it
  const unknownId = /^\?(?:$|[\s:,;])/.test(rest);
  if (index !== undefined) {
    if (byId === undefined) return unknownId ? { index } : { ambiguous: true };
    return byId === index || ids[byId] === ids[index] ? { index } : { ambiguous: true };
  }
  return byId === undefined ? undefined : { index: byId };
}

/** The batch's item whose id is quoted at the start of `rest` (`"A 1": …`). */
function quotedId(rest: string, ids: readonly (string | undefined)[]): number | undefined {
  if (!rest.startsWith('"')) return undefined;
  const end = rest.indexOf('"', 1);
  const found = end > 0 ? ids.indexOf(rest.slice(1, end)) : -1;
  return found >= 0 ? found : undefined;
}

/** The batch's item whose id `rest` starts with, whole (followed by an end, a space or `:,;`), the longest that fits. */
function rawId(rest: string, ids: readonly (string | undefined)[]): number | undefined {
  let byId: number | undefined;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!id || !rest.startsWith(id) || !ID_END.test(rest.slice(id.length))) continue;
    if (byId === undefined || id.length > ids[byId]!.length) byId = i;
  }
  return byId;
}

function isElement(value: unknown): value is DataErrorElement {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as DataErrorElement).message === 'string' &&
    typeof (value as DataErrorElement).detail === 'string'
  );
}

const SHOWN = 200;
const show = (text: string) => shorten(redact(text), SHOWN);
const describeErrors = (errors: readonly DataErrorElement[]) =>
  errors.length === 0
    ? ''
    : `: ${shortList(
        errors.map((e) => redact([e.message, e.detail].filter(Boolean).join(' '))),
        SHOWN,
      )}`;

/** Reads one answer to a batch of items with these externalIds, as the profile says the API answers. */
export function readAnswer(answer: BatchAnswerData, externalIds: readonly (string | undefined)[], profile: AnswersProfile): AnswerReading {
  const { code, success, error } = answer.data;
  const n = externalIds.length;
  const elements: DataErrorElement[] = [];
  for (const element of error) {
    // redacted before it is cut: a key cut in two would no longer be recognised
    if (!isElement(element))
      return { kind: 'unverifiable', reason: `a data.error element has an unexpected shape: ${show(JSON.stringify(element) ?? 'undefined')}` };
    elements.push(element);
  }
  if (typeof answer.status !== 'string' || answer.status.trim().toUpperCase() !== 'SUCCESS') {
    return { kind: 'failed', reason: `the server answered status ${show(JSON.stringify(answer.status))} (data.code ${code})${describeErrors(elements)}` };
  }
  if (!profile.successCodes.includes(code)) {
    return { kind: 'failed', reason: `data.code ${code} is not a success code (${profile.successCodes.join(', ')})${describeErrors(elements)}` };
  }

  const perItem = new Map<number, DataErrorElement[]>();
  const unnamed: DataErrorElement[] = [];
  const put = (index: number, element: DataErrorElement) => {
    const list = perItem.get(index);
    if (list) list.push(element);
    else perItem.set(index, [element]);
  };
  for (const element of elements) {
    const named = leadingItem(element.detail, externalIds) ?? leadingItem(element.message, externalIds);
    if (named && 'pastBatch' in named) {
      return { kind: 'unverifiable', reason: `a data.error element points past the batch (items[${named.pastBatch}] of ${n}): ${show(element.detail)}` };
    }
    if (named && 'index' in named) put(named.index, element);
    else unnamed.push(element);
  }

  if (profile.successIsCount) {
    if (typeof success !== 'number' || !Number.isInteger(success) || success < 0 || success > n) {
      return {
        kind: 'unverifiable',
        reason: `data.success is ${show(JSON.stringify(success) ?? 'missing')}, not a count of the batch's ${n} ${n === 1 ? 'item' : 'items'} (if this API does not count with it, set answers.successIsCount false or pass --no-check-success-count)`,
      };
    }
    const clean = n - perItem.size;
    // the counts say every unnamed element left the items alone: they are warnings
    if (success === clean) return { kind: 'read', perItem, warnings: unnamed };
    if (n === 1 && success === 0 && perItem.size === 0) {
      for (const element of unnamed) put(0, element);
      return { kind: 'read', perItem, warnings: [] };
    }
    const why =
      unnamed.length > 0
        ? `${unnamed.length === 1 ? 'an error names' : `${unnamed.length} errors name`} no item and data.success is ${success} of ${n}`
        : `data.success is ${success} but ${clean} of ${n} ${n === 1 ? 'item' : 'items'} ${clean === 1 ? 'carries' : 'carry'} no error`;
    return { kind: 'unresolved', reason: why };
  }
  if (unnamed.length === 0) return { kind: 'read', perItem, warnings: [] };
  if (profile.namesItems) return { kind: 'read', perItem, warnings: unnamed };
  // one item: whatever the answer says is about it
  if (n === 1) {
    for (const element of unnamed) put(0, element);
    return { kind: 'read', perItem, warnings: [] };
  }
  return {
    kind: 'unresolved',
    reason: `${unnamed.length === 1 ? 'an error names' : `${unnamed.length} errors name`} no item of the ${n}${describeErrors(unnamed)}`,
  };
}
