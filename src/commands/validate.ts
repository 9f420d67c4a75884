// `batch-sync validate [files…]`: read, map and validate without sending.
import type { Command } from 'commander';
import { VALIDATE_OPTIONS } from '../config/options.js';
import type { Output } from '../report/output.js';
import { addOptions, givenFlags } from './add-options.js';
import { examples } from './examples.js';
import type { SetExit } from './set-exit.js';
import { FILES_ARGUMENT, runSyncCommand, syncRequest } from './run-command.js';

export function registerValidate(program: Command, output: Output, setExit: SetExit): void {
  const command = program
    .command('validate')
    .description('read, map and validate files without sending anything')
    .addHelpText(
      'after',
      `\nExit codes: 0 every row valid, 1 some rows invalid, 2 unusable input or options.\n${examples(
        ['batch-sync validate fixtures/canonical/sales-profiles.csv fixtures/hubspot/deals.csv', 'each file with the profile beside it, if any'],
        [
          'batch-sync validate fixtures/es-excel/vendedores.csv fixtures/xlsx/oportunidades.xlsx:fixtures/es-excel/oportunidades.profile.json --errors invalid.csv',
        ],
        ['batch-sync validate --config fixtures/crm-sales-opportunities/batch-sync.config.json --format json'],
      )}`,
    )
    .argument(...FILES_ARGUMENT);
  addOptions(command, VALIDATE_OPTIONS).action(async (files: string[], _flags: unknown, self: Command) => {
    const { exitCode } = await runSyncCommand(syncRequest('validate', files, givenFlags(self, VALIDATE_OPTIONS)), output);
    setExit(exitCode);
  });
}
