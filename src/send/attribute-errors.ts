// Which item of a batch each `data.error` element speaks of. The spec does not say how elements
// relate to items, so we look for an index (`items[3]`) or an externalId in message or detail;
// what points nowhere goes to the whole batch, and what cannot be trusted makes the batch
// unverifiable. Pure: no I/O.

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
const EXTERNAL_ID = /\bexternalId\s*[=:]\s*"?([^\s",;]+?)"?(?=[\s,;:]|$)/;
const TOKEN = /[^\s"'`,;:()[\]{}=]+/g;

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
      return { perItem, batchLevel, unverifiable: `a data.error element has an unexpected shape: ${JSON.stringify(element)?.slice(0, 200)}` };
    }
    const text = `${element.message} ${element.detail}`;
    let index: number | undefined;
    const indexMatch = INDEX.exec(text);
    if (indexMatch) {
      index = Number(indexMatch[1]);
      if (index >= externalIds.length) {
        return { perItem, batchLevel, unverifiable: `a data.error element points past the batch (items[${index}] of ${externalIds.length}): ${element.detail.slice(0, 200)}` };
      }
    }
    const idMatch = EXTERNAL_ID.exec(text);
    if (idMatch) {
      const byExternalId = indexOfId(idMatch[1]!);
      // an index that disagrees with the id it names: trust the id, which the item carries itself
      if (byExternalId !== undefined && (index === undefined || externalIds[index] !== idMatch[1])) index = byExternalId;
    }
    if (index === undefined) {
      for (const token of text.match(TOKEN) ?? []) {
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
