// `batch-sync init`'s options, declared once like validate's and push's (config/option.ts): the
// reader flags are the same rows those commands read files with.
import { z } from 'zod';
import { METHODS, RESOURCE_NAMES_HELP } from '../contract/resources.js';
import type { OptionTable } from './option.js';
import { DEFAULT_PLAN_FILE } from './sync-plan.js';
import { READER_OPTIONS } from './options-reader.js';

export const INIT_OPTIONS = {
  resource: { flag: '--resource <kind>', schema: z.string().describe(`${RESOURCE_NAMES_HELP}; required with one file, guessed from each header with several`) },
  method: {
    flag: '--method <method>',
    schema: z.enum(METHODS, { error: 'takes post or patch' }).describe('operation the items are for'),
    default: 'post' as const,
    helpDefault: 'post',
  },
  out: {
    flag: '--out <profile.json>',
    schema: z.string().describe('where to write the profile, with one file (default: <file name>.profile.json beside the file)'),
  },
  plan: {
    flag: '--plan <plan.json>',
    schema: z.string().describe(`where to write the sync plan, with several files (default: ${DEFAULT_PLAN_FILE} beside the first)`),
  },
  force: { flag: '--force', schema: z.boolean().describe('overwrite an existing profile or plan') },
  sample: {
    flag: '--sample <rows>',
    schema: z
      .number({ error: 'takes a whole number of rows' })
      .int('takes a whole number of rows')
      .min(1, 'takes at least 1 row')
      .describe('rows to read for guessing formats'),
    default: 200,
    helpDefault: '200',
  },
  checkTime: {
    flag: '--check-time <seconds>',
    schema: z
      .number({ error: 'takes a number of seconds' })
      .min(0, 'takes 0 or more seconds')
      .describe('how long init may try its proposal on the data before writing it (a longer file is checked on rows spread over it; 0: not tried)'),
    default: 20,
    helpDefault: '20',
  },
  delimiter: READER_OPTIONS.delimiter,
  encoding: READER_OPTIONS.encoding,
  headerRow: READER_OPTIONS.headerRow,
  null: READER_OPTIONS.null,
  sheet: READER_OPTIONS.sheet,
  escape: READER_OPTIONS.escape,
  root: READER_OPTIONS.root,
  maxRecordBytes: READER_OPTIONS.maxRecordBytes,
} satisfies OptionTable;
