// NDJSON / JSON Lines: one item per line; a broken line is unreadable and the others go on.

import { InputError } from '../../errors.js';
import { utf8Chunks } from '../encoding.js';
import { at } from '../file-errors.js';
import { sniff } from '../sniff.js';
import { DEFAULT_MAX_RECORD_BYTES, type OpenedSource, type ReaderOptions, type SourceRecord, type SourceWarning } from '../types.js';
import { itemRecord } from './read-json.js';
import { RepeatedKeys } from './repeated-keys.js';

export async function openNdjson(file: string, options: ReaderOptions, warnings: SourceWarning[]): Promise<OpenedSource> {
  const { encoding, bomLength } = await sniff(file, options.encoding, warnings);
  const maxLineBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;

  async function* records(): AsyncGenerator<SourceRecord> {
    let carry: Buffer[] = [];
    let carrySize = 0;
    let line = 1;
    let count = 0;
    const keys = new RepeatedKeys(file, warnings);
    const take = (bytes: Buffer): SourceRecord | undefined => {
      const text = bytes.toString('utf8').trim(); // also drops the \r of CRLF
      const record = text === '' ? undefined : itemRecord(file, text, line, false, keys);
      line++;
      return record;
    };
    for await (const chunk of utf8Chunks({ file, encoding, start: bomLength, skip: 0 })) {
      let from = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, from)) {
        const piece = chunk.subarray(from, nl);
        const record = take(carry.length === 0 ? piece : Buffer.concat([...carry, piece]));
        carry = [];
        carrySize = 0;
        from = nl + 1;
        if (record) {
          count++;
          yield record;
        }
      }
      if (from < chunk.length) {
        carry.push(Buffer.from(chunk.subarray(from))); // copy: the stream reuses chunk memory
        carrySize += chunk.length - from;
        if (carrySize > maxLineBytes) {
          throw new InputError(`${at(file, line)}: the line is over ${maxLineBytes} bytes with no line break`, {
            suggestion: 'NDJSON needs one item per line; if the lines really are that long, raise maxRecordBytes (--max-record-bytes).',
          });
        }
      }
    }
    const last = carry.length === 0 ? undefined : take(Buffer.concat(carry));
    if (last) {
      count++;
      yield last;
    }
    if (count === 0) warnings.push({ file, message: 'has no items' });
  }

  return { file, format: 'ndjson', detected: { encoding }, warnings, records: records() };
}
