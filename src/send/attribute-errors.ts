// Which item of a batch each `data.error` element speaks of. The spec does not say how elements
// relate to items, so we look for an index (`items[3]`) or an externalId in message or detail;
// what points nowhere goes to the whole batch, and what cannot be trusted makes the batch
// unverifiable. Pure: no I/O.
import { redact } from '../redact.js';

export interface DataErrorElement {
  message: string;
  detail: string;
}

export interface Attribution {
  /** Errors per item, by index in the batch. */
  perItem: Map<number, DataErrorElement[]>;
  /** Errors that name no item of the batch: they fall on the whole batch. */
  batchLevel: DataErrorElement[];
  /** Set when the response cannot be trusted to say which items were accepted. */
  unverifiable?: string;
}

const INDEX = /\bitems\[(\d+)\]/;
const ID_LABEL = /\bexternalId\s*[=:]\s*("?)/g;
const TOKEN = /[^\s"'`,;:()[\]{}=]+/g;
const ID_END = /[\s,;:"]/;

/**
 * The item whose externalId follows an `externalId=` in the text, compared whole against the batch's
 * ids (the longest that fits, then ends): a pattern that guessed where an id ends read "ACME" out
 * of `externalId=ACME 2:` and put the rejection of "ACME 2" on "ACME", counted accepted.
 */
function namedItem(text: string, externalIds: readonly (string | undefined)[]): number | undefined {
  for (const m of text.matchAll(ID_LABEL)) {
    const at = m.index + m[0].length;
    const quoted = m[1] === '"';
    let best: number | undefined;
    for (let i = 0; i < externalIds.length; i++) {
      const id = externalIds[i];
      if (!id || (best !== undefined && id.length <= externalIds[best]!.length) || !text.startsWith(id, at)) continue;
      const next = text.charAt(at + id.length);
      if (quoted ? next === '"' : next === '' || ID_END.test(next)) best = i;
    }
    if (best !== undefined) return best;
  }
  return undefined;
}

/**
 * A bare word taken for an item's id only when it could hardly be anything else: three characters
 * or more and not only digits. "at most 2 decimal places" once put a rejection on deal "2".
 */
const likelyId = (token: string) => token.length >= 3 && !/^\d+$/.test(token);

function isElement(value: unknown): value is DataErrorElement {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as DataErrorElement).message === 'string' &&
    typeof (value as DataErrorElement).detail === 'string'
  );
}

export interface AttributeOptions {
  /** data.success as the server sent it. */
  success?: unknown;
  /** Check that data.success equals the number of items without errors (default true). */
  checkSuccessCount?: boolean;
}

export function attributeErrors(errors: readonly unknown[], externalIds: readonly (string | undefined)[], options: AttributeOptions = {}): Attribution {
  const perItem = new Map<number, DataErrorElement[]>();
  const batchLevel: DataErrorElement[] = [];
  let byId: Map<string, number> | undefined;
  const indexOfId = (id: string) => {
    byId ??= new Map(externalIds.map((value, i) => [value ?? '', i] as const).filter(([value]) => value !== '').reverse());
    return byId.get(id);
  };

  for (const element of errors) {
    if (!isElement(element)) {
      // redacted before it is cut: a key cut in two would no longer be recognised
      return { perItem, batchLevel, unverifiable: `a data.error element has an unexpected shape: ${redact(JSON.stringify(element) ?? 'undefined').slice(0, 200)}` };
    }
    const text = `${element.message} ${element.detail}`;
    let index: number | undefined;
    const indexMatch = INDEX.exec(text);
    if (indexMatch) {
      index = Number(indexMatch[1]);
      if (index >= externalIds.length) {
        return { perItem, batchLevel, unverifiable: `a data.error element points past the batch (items[${index}] of ${externalIds.length}): ${redact(element.detail).slice(0, 200)}` };
      }
    }
    const named = namedItem(text, externalIds);
    // an index that disagrees with the id it names: trust the id, which the item carries itself
    if (named !== undefined) index = named;
    if (index === undefined) {
      for (const token of text.match(TOKEN) ?? []) {
        if (!likelyId(token)) continue;
        const found = indexOfId(token);
        if (found !== undefined) {
          index = found;
          break;
        }
      }
    }
    if (index === undefined) batchLevel.push(element);
    else {
      const list = perItem.get(index);
      if (list) list.push(element);
      else perItem.set(index, [element]);
    }
  }

  if (options.checkSuccessCount !== false && batchLevel.length === 0 && options.success !== undefined) {
    const expected = externalIds.length - perItem.size;
    if (options.success !== expected) {
      return {
        perItem,
        batchLevel,
        unverifiable: `data.success is ${JSON.stringify(options.success)} but ${expected} of ${externalIds.length} items carry no error (use --no-check-success-count if this API reports success differently)`,
      };
    }
  }
  return { perItem, batchLevel };
}
