// How to read a file, declared once (see option.ts): flags for the files named on the command line,
// `reader` in each job of the plan (`jobs[].reader`, see config/sync-plan.ts).
import { z } from 'zod';
import { inGroup, type OptionTable } from './option.js';
import { text, wholeAtLeast } from './option-schemas.js';

export const READER_OPTIONS = inGroup('input', {
  fileFormat: { plan: 'reader.format', schema: z.enum(['csv', 'json', 'ndjson', 'xlsx']).describe("the file's format (default: from its extension)") },
  delimiter: {
    flag: '--delimiter <char>',
    plan: 'reader.delimiter',
    schema: z
      .string()
      .min(1, 'must not be empty')
      .transform((d) => (d === '\\t' || d === 'tab' ? '\t' : d))
      .describe('CSV delimiter (default: detected among , ; tab |)'),
  },
  encoding: {
    flag: '--encoding <name>',
    plan: 'reader.encoding',
    schema: text('file encoding: utf-8, utf-16le, utf-16be, windows-1252, latin1 (default: detected)'),
  },
  headerRow: {
    flag: '--header-row <n>',
    plan: 'reader.headerRow',
    schema: wholeAtLeast(1, 'a line number (1 or more)').describe('line of the header row, for exports with title rows above it'),
  },
  escape: {
    flag: '--escape <char>',
    plan: 'reader.escape',
    schema: z.string().length(1, 'takes one character').describe('escape character inside quoted CSV fields (default: the quote itself, "")'),
  },
  null: {
    flag: '--null <text>',
    plan: 'reader.null',
    schema: z
      .string()
      .min(1, 'must not be empty')
      .describe("CSV: the file's NULL marker, e.g. \\N (MySQL's): a cell that is exactly it, quoted or not, reads as empty (default: none)"),
  },
  sheet: {
    flag: '--sheet <name|number>',
    plan: 'reader.sheet',
    schema: z
      .union([z.string().min(1, 'must not be empty'), z.number().int().min(1, 'counts sheets from 1')])
      .transform(String)
      .describe('workbooks (.xlsx): the sheet to read, by name or by its number from 1 (default: the first sheet that holds data)'),
  },
  root: {
    flag: '--root <pointer>',
    plan: 'reader.root',
    schema: z
      .string()
      .regex(/^(?:\/|$)/, { error: 'takes a JSON pointer: "/records", "/data/items" (or "" for a top-level array)' })
      .describe('JSON: where the items are, as a JSON pointer (default: the top-level array, or the one top-level key holding an array of objects)'),
  },
  maxRecordBytes: {
    flag: '--max-record-bytes <n>',
    plan: 'reader.maxRecordBytes',
    schema: wholeAtLeast(1024, 'a whole number of bytes (1024 or more)').describe(
      'largest CSV record or JSON item before the file is declared broken (default 1048576)',
    ),
  },
} satisfies OptionTable);
