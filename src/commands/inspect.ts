// `batch-sync inspect FILE`: how batch-sync reads a file, for a user whose column "is not there"
// and for tests of the readers. Thin: options from their table, one core call (run/inspect.ts), a
// renderer (report/render-inspect.ts). Reads the file's first rows; never writes or sends.
import type { Command } from 'commander';
import { INSPECT_OPTIONS } from '../config/inspect-options.js';
import { readerFlags } from '../config/input-flags.js';
import { resolveOptions } from '../config/option.js';
import { inspectionJson, inspectionLines } from '../report/render-inspect.js';
import type { Output } from '../report/output.js';
import { inspectFile } from '../run/inspect.js';
import { addOptions, givenFlags } from './add-options.js';
import { examples } from './examples.js';
import type { SetExit } from './set-exit.js';

const EXAMPLES = `
Exit codes: 0 the file was read (whatever its rows hold), 2 it cannot be read or an option is wrong.
${examples(
  ['batch-sync inspect fixtures/es-reporte/oportunidades.xlsx'],
  ['batch-sync inspect fixtures/xlsx/oportunidades.xlsx --sheet Listas --rows 2'],
  ['batch-sync inspect fixtures/es-excel/oportunidades.csv --format json --rows 1'],
)}`;

export function registerInspect(program: Command, output: Output, _setExit: SetExit): void {
  const command = program
    .command('inspect')
    .description('show how a file is read: format, encoding, delimiter, sheet, header row and why, columns with types and examples, first rows, warnings')
    .argument('<file>', 'a CSV, JSON, NDJSON or .xlsx file')
    .addHelpText('after', EXAMPLES);
  addOptions(command, INSPECT_OPTIONS).action(async (file: string, _flags: unknown, self: Command) => {
    const given = givenFlags(self, INSPECT_OPTIONS);
    const { format, rows, sample } = resolveOptions(INSPECT_OPTIONS, given, {});
    const inspection = await inspectFile(file, readerFlags(given), { sample, rows });
    if (format === 'json') output.out(`${JSON.stringify(inspectionJson(inspection), null, 2)}\n`);
    else for (const line of inspectionLines(inspection)) output.out(line);
  });
}
