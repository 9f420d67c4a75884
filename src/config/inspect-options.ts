// `batch-sync inspect`'s options, declared once (config/option.ts): the reader flags are the rows
// validate, push and init read files with, and the sample size is init's.
import { z } from 'zod';
import { INIT_OPTIONS } from './init-options.js';
import type { OptionTable } from './option.js';
import { wholeAtLeast } from './option-schemas.js';
import { READER_OPTIONS } from './options-reader.js';

export const INSPECT_OPTIONS = {
  format: {
    flag: '--format <format>',
    default: 'human',
    helpDefault: 'human',
    schema: z.enum(['human', 'json']).describe('human: lines to read; json: one document'),
  },
  rows: {
    flag: '--rows <n>',
    default: 5,
    helpDefault: '5',
    schema: wholeAtLeast(0, 'a whole number of rows (0 or more)').describe('first rows to show as read'),
  },
  sample: { ...INIT_OPTIONS.sample, schema: INIT_OPTIONS.sample.schema.describe('rows to read for the column types and examples') },
  // every flag the reader has (its format is the plan's or the extension's: no flag)
  ...READER_OPTIONS,
} satisfies OptionTable;
