// How identical reasons are recognised across rows: 10,000 failures with one cause must read as one
// line, so the parts of a message that vary per row (which item, which value) are normalised away.
import type { RowOutcome } from '../plan/outcome.js';

/**
 * The server prefixes each error with the item it refers to (`items[3] externalId=DEAL-9: `).
 * That prefix differs on every row and says nothing about the cause.
 */
export const ITEM_PREFIX = /^\s*items\[\d+\](?:\s+externalId=(?:"[^"]*"|\S*?))?\s*:\s*/;

/** A quoted text, with the hint's verb before it when there is one (`add a "map"`). */
const QUOTED = /(\b(?:add an?|add it to|set|give) )?"(?:[^"\\]|\\.)*"/g;
/** What a hint names: a profile key, one word. */
const HINT_WORD = /^"[A-Za-z]+"$/;

const NEXT_ITEM_PREFIX = new RegExp(`;${ITEM_PREFIX.source.slice(1)}`, 'g');

/** Reason text with per-row parts replaced, used both as part of the group key and as its label. */
export function normaliseReason(text: string): string {
  return (
    text
      .replace(ITEM_PREFIX, '')
      // the server's errors for one item are joined with "; ": each has the prefix
      .replace(NEXT_ITEM_PREFIX, '; ')
      // item indexes and ids elsewhere in the text vary per row too
      .replace(/items\[\d+\]/g, 'items[…]')
      .replace(/externalId=(?:"[^"]*"|[^\s:,;]+)/g, 'externalId=…')
      // so do batch ids (`batch crm-deal-…-00012.1`): 1,000 batches refused alike are one group
      .replace(/\bbatch [\w.-]*\d[\w.-]*/g, 'batch …')
      // and so does where an earlier row stands (`first seen at deals.csv:4`): 400 duplicates are one group
      .replace(/\bat (\S+?):\d+(?=[,;)\s]|$)/g, 'at $1:…')
      // quoted values: "USX" and "ABC" are the same problem; the word a hint names is not a value
      // (`add a "map"`, `set "format"`, `give "otherwise"`): the same on every row, and the hint's point
      .replace(QUOTED, (quoted, hint: string | undefined) => (hint && HINT_WORD.test(quoted.slice(hint.length)) ? quoted : `${hint ?? ''}"…"`))
      // and a list of them is the same problem as one
      .replace(/"…"(?:, "…")+/g, '"…"')
      // single quotes only at word edges: the apostrophe of "API's" or "isn't" opens nothing
      .replace(/(?<![\p{L}\p{N}])'(?:\\.|[^\\])*?'(?![\p{L}\p{N}])/gu, "'…'")
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The row's own prefix removed wherever an error of it starts (`items[3] externalId=1 234,5: `):
 * with the id known, one that holds spaces, colons or quotes is read whole, which no pattern can.
 */
export function withoutOwnPrefix(detail: string, externalId: string | undefined): string {
  if (!externalId || !detail.includes('externalId=')) return detail;
  const id = `(?:${escapeRegExp(JSON.stringify(externalId))}|${escapeRegExp(externalId)})`;
  return detail.replace(new RegExp(`(^|;)\\s*(?:items\\[\\d+\\]\\s+)?externalId=${id}\\s*:\\s*`, 'g'), (_, start: string) => (start ? '; ' : ''));
}

/** Rows whose item repeats an earlier row's exactly: one group per file, whichever rows they repeat. */
const IDENTICAL = 'DUPLICATE_IDENTICAL';

/**
 * `2 rows repeat an earlier row exactly (first at deals.csv:2): sent once`, from the group's first
 * row (`rows of b.csv repeat …` when the row it repeats is in another file).
 */
export function identicalLine(count: number, first: Pick<RowOutcome, 'file' | 'detail'>): string {
  const at = first.detail.replace(/^identical to /, '');
  const of = at.startsWith(`${first.file}:`) ? '' : ` of ${first.file}`;
  return `${count} ${count === 1 ? `row${of} repeats` : `rows${of} repeat`} an earlier row exactly (first at ${at}): sent once`;
}

export const isIdenticalGroup = (g: { outcome: string; examples: readonly Pick<RowOutcome, 'message'>[] }) =>
  g.outcome === 'skipped' && g.examples[0]?.message === IDENTICAL;

type Labelled = Pick<RowOutcome, 'message' | 'detail' | 'field'> & { column?: string; externalId?: string; file?: string };

/** The label a group is printed under: `VALIDATION_ERROR amount.currency: "…" is not …`. */
export function groupLabel(o: Labelled): string {
  if (o.message === IDENTICAL && o.file !== undefined) return `${IDENTICAL} ${identicalLine(2, { file: o.file, detail: o.detail }).replace(/^2 /, '')}`;
  const reason = normaliseReason(withoutOwnPrefix(o.detail, o.externalId));
  // invalid rows carry the field apart from the reason; the server puts it inside the detail
  const withField = o.field && !reason.startsWith(o.field) ? `${o.field}: ${reason}` : reason;
  // and their first problem's column apart too (further problems name theirs): `column → field`, as
  // the row's own line reads, the column said once where it is the field
  const column = o.column && o.field && o.column !== o.field && withField.startsWith(`${o.field}: `) ? `${o.column} → ` : '';
  return [o.message, column + withField].filter(Boolean).join(' ');
}

/** Resource + outcome + the normalised message: rows with equal keys are one group. */
export function groupKey(o: Pick<RowOutcome, 'resource' | 'outcome' | 'message'> & Labelled): string {
  if (o.message === IDENTICAL) return `${o.resource}\u0000${o.outcome}\u0000${IDENTICAL}\u0000${o.file}`;
  return `${o.resource}\u0000${o.outcome}\u0000${groupLabel(o)}`;
}
