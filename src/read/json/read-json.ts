// JSON: the items array streamed element by element, each element with the line it starts on.

import { InputError } from '../../errors.js';
import { utf8Chunks } from '../encoding.js';
import { at } from '../file-errors.js';
import { sniff } from '../sniff.js';
import { DEFAULT_MAX_RECORD_BYTES, type OpenedSource, type ReaderOptions, type SourceRecord, type SourceWarning } from '../types.js';
import { findRoot, pointerTokens } from './json-root.js';
import { JsonShapeError } from './json-shape.js';
import { JsonItemSplitter } from './json-splitter.js';
import { RepeatedKeys } from './repeated-keys.js';
import { findUnsafeInteger, lineOfParseError, unsafeIntegerReason } from './unsafe-integer.js';

export async function openJson(file: string, options: ReaderOptions, warnings: SourceWarning[]): Promise<OpenedSource> {
  const { encoding, bomLength } = await sniff(file, options.encoding, warnings);
  const maxItemBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const path = await itemsPath(file, options.root, { file, encoding, start: bomLength }, maxItemBytes);
  const root = options.root ?? (path.length ? `/${path[0]!.replace(/~/g, '~0').replace(/\//g, '~1')}` : undefined);

  async function* records(): AsyncGenerator<SourceRecord> {
    const splitter = new JsonItemSplitter(maxItemBytes, path, options.root);
    const keys = new RepeatedKeys(file, warnings);
    const ready: SourceRecord[] = [];
    let count = 0;
    const onItem = (text: string, line: number) => {
      ready.push(itemRecord(file, text, line, true, keys));
    };
    try {
      for await (const chunk of utf8Chunks({ file, encoding, start: bomLength, skip: 0 })) {
        splitter.feed(chunk, onItem);
        for (let i = 0; i < ready.length; i++) yield ready[i]!;
        count += ready.length;
        ready.length = 0;
      }
      splitter.end();
    } catch (err) {
      if (err instanceof JsonShapeError) throw new InputError(`${at(file, err.line)}: ${err.message}`);
      throw err;
    }
    if (count === 0) warnings.push({ file, message: 'has no items' });
  }

  return { file, format: 'json', detected: { encoding, root }, warnings, records: records() };
}

async function itemsPath(file: string, root: string | undefined, source: Parameters<typeof findRoot>[0], maxItemBytes: number): Promise<string[]> {
  try {
    return root === undefined ? await findRoot(source, maxItemBytes) : pointerTokens(root);
  } catch (err) {
    if (err instanceof JsonShapeError) throw new InputError(`${at(file, err.line)}: ${err.message}`);
    throw err;
  }
}

/**
 * One JSON text → an item. In a JSON array a broken element means the structure around it is not
 * to be trusted either, so it stops the read (`strict`); an NDJSON line is independent of the next.
 * `keys`: the file's record of repeated keys, which reads both copies of one.
 */
export function itemRecord(file: string, text: string, line: number, strict: boolean, keys: RepeatedKeys): SourceRecord {
  let item: unknown;
  try {
    // JSON.parse makes `__proto__` an own property, never a prototype: validation reports it as unknown
    item = JSON.parse(text);
  } catch (err) {
    const reason = `not valid JSON: ${(err as Error).message}`;
    if (strict) throw new InputError(`${at(file, lineOfParseError(err, text, line))}: ${reason} (in the item starting on line ${line})`);
    return { kind: 'unreadable', file, line, reason };
  }
  const unsafe = findUnsafeInteger(text);
  if (unsafe) return { kind: 'unreadable', file, line, reason: unsafeIntegerReason(text, unsafe, line) };
  return { kind: 'item', file, line, item: keys.read(text, item, line) };
}
