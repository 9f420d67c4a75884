// `batch-sync init <file> --resource <kind>`: reads the header and a sample, proposes a mapping
// profile (src/map/propose.ts), writes it, and says what was mapped and what the user must fill in.
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { METHODS, RESOURCE_NAMES_HELP, parseResource, type Method } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import { proposeProfile } from '../map/propose.js';
import { sampleSource } from '../read/index.js';
import { readerFlags } from './input-options.js';
import type { Output } from '../report/output.js';
import type { SetExit } from './index.js';

interface InitOptions {
  resource: string;
  method: Method;
  out?: string;
  force?: boolean;
  sample: string;
  delimiter?: string;
  encoding?: string;
  headerRow?: string;
}

export function registerInit(program: Command, output: Output, _setExit: SetExit): void {
  program
    .command('init')
    .description('propose a mapping profile for an export: columns matched to fields, formats guessed from a sample')
    .argument('<file>', 'the CSV export to map')
    .requiredOption('--resource <kind>', `(required) what the file holds: ${RESOURCE_NAMES_HELP}`)
    .addOption(new Option('--method <method>', 'operation the items are for').choices(METHODS).default('post'))
    .option('--out <profile.json>', 'where to write the profile (default: <file name>.profile.json beside the file)')
    .option('--force', 'overwrite an existing profile')
    .option('--sample <rows>', 'rows to read for guessing formats', '200')
    .option('--delimiter <char>', 'CSV delimiter (default: detected among , ; tab |)')
    .option('--encoding <name>', 'file encoding (default: detected)')
    .option('--header-row <n>', 'line of the header row, for exports with title rows above it')
    .action(async (file: string, opts: InitOptions) => {
      const resource = parseResource(opts.resource);
      if (!resource) throw new UsageError(`unknown resource "${opts.resource}"`, { suggestion: `use one of: ${RESOURCE_NAMES_HELP}` });
      const limit = Number(opts.sample);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--sample must be a positive whole number, not "${opts.sample}"`);
      const out = opts.out ?? join(dirname(file), `${basename(file).replace(/\.[^.]*$/, '')}.profile.json`);

      if (resolve(out) === resolve(file)) throw new UsageError(`refusing to write the profile over the export it reads: ${out}`, { suggestion: 'pass another --out' });
      const sample = await sampleSource(file, limit, readerFlags({ ...opts, format: 'human' })); // InputError (exit 2) when it cannot be read
      if (!sample.header) {
        throw new UsageError(`${file} is ${sample.format.toUpperCase()}: items in the API's shape need no profile`, {
          suggestion: `check them with: batch-sync validate ${file}`,
        });
      }
      const rows = sample.records.flatMap((r) => (r.kind === 'row' ? [r.row] : []));
      const proposal = proposeProfile({
        resource,
        method: opts.method,
        header: sample.header,
        rows,
        reader: { delimiter: sample.detected.delimiter, encoding: sample.detected.encoding, headerRow: sample.detected.headerRow },
      });

      try {
        await writeFile(out, `${JSON.stringify(proposal.profile, null, 2)}\n`, { flag: opts.force ? 'w' : 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new UsageError(`${out} already exists`, { suggestion: 'use --force to overwrite it, or --out to write elsewhere' });
        }
        throw error;
      }

      const c = output.color;
      output.out(`wrote ${out} (${resource}, from ${rows.length} sample row${rows.length === 1 ? '' : 's'} of ${file})`);
      output.out('\nmapped:');
      for (const m of proposal.mapped) output.out(`  ${m.field.padEnd(28)} ← ${m.source}`);
      if (proposal.customFields.length) {
        output.out('\ncustom fields (columns no API field matched):');
        for (const f of proposal.customFields) output.out(`  ${f.key.padEnd(28)} ← "${f.column}" (${f.type})`);
      }
      if (proposal.notes.length) {
        output.out('\ncheck:');
        for (const n of proposal.notes) output.out(`  - ${n}`);
      }
      if (proposal.fillIn.length) {
        output.out(`\n${c.yellow('fill in before use')} (the profile is refused until then):`);
        for (const f of proposal.fillIn) output.out(`  ${f.path}: ${f.reason}`);
      } else {
        output.out(`\nnext: batch-sync validate ${file} --profile ${out}`);
      }
    });
}
