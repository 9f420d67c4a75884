// `batch-sync validate [files…]`: read, map and validate without sending.
import type { Command } from 'commander';
import type { Output } from '../report/output.js';
import { addInputOptions } from './input-options.js';
import type { SetExit } from './index.js';
import { runSyncCommand, syncRequest, type CommonFlags } from './run-command.js';

export function registerValidate(program: Command, output: Output, setExit: SetExit): void {
  addInputOptions(
    program
      .command('validate')
      .description('read, map and validate files without sending anything')
      .addHelpText('after', '\nExit codes: 0 every row valid, 1 some rows invalid, 2 unusable input or options.\n\nExample:\n  batch-sync validate deals.csv --profile deals.profile.json --format json'),
  )
    .option('--emit <file>', 'write the batch envelopes that would be sent, one JSON envelope per line; "-": to stdout (the report then goes to stderr)')
    .option('--errors <file.csv|dir>', 'write the rows not valid, with their original columns, to a CSV')
    .option('--source <name>', 'envelope source for --emit')
    .option('--method <method>', 'validate against the post or patch item shape')
    .option('--batch-size <n>', 'items per batch for --emit')
    .option('-q, --quiet', 'print only the report and errors')
    .option('-v, --verbose', 'print warnings as they are found (field names and row numbers, never values)')
    .action(async (files: string[], flags: CommonFlags & { source?: string; method?: string; batchSize?: string }) => {
      const request = syncRequest('validate', files, flags, { source: flags.source, method: flags.method, batchSize: flags.batchSize });
      const { exitCode } = await runSyncCommand(request, flags, output);
      setExit(exitCode);
    });
}
