// `batch-sync schema plan|profile|<resource> [--method post|patch]`: a JSON Schema generated from the
// zod schemas the code validates with: the sync plan's, a mapping profile's, or an item's.
import { Option, type Command } from 'commander';
import { itemJsonSchema, type JsonSchema } from '../contract/json-schema.js';
import { METHODS, RESOURCE_NAMES_HELP, parseResource, type Method } from '../contract/resources.js';
import { planJsonSchema } from '../config/sync-plan.js';
import { UsageError } from '../errors.js';
import { profileJsonSchema } from '../map/profile-json-schema.js';
import type { Output } from '../report/output.js';
import { examples } from './examples.js';
import type { SetExit } from './set-exit.js';

/** The files a user writes by hand; `schemas/<file>` holds what `schema <name>` prints. */
const FILE_SCHEMAS: Record<string, () => JsonSchema> = { plan: planJsonSchema, profile: profileJsonSchema };

export function registerSchema(program: Command, output: Output, _setExit: SetExit): void {
  program
    .command('schema')
    .description('print a JSON Schema generated from the code: of the sync plan, of a mapping profile, or of an item kind')
    .argument('<what>', `plan (batch-sync.config.json), profile (*.profile.json), or an item kind: ${RESOURCE_NAMES_HELP}`)
    .addOption(new Option('--method <method>', 'item kinds: the operation whose item shape to print').choices(METHODS).default('post'))
    .addHelpText(
      'after',
      examples(
        ['batch-sync schema profile > profile.schema.json', 'what schemas/profile.schema.json holds'],
        ['batch-sync schema plan', 'batch-sync.config.json, with every option the plan takes'],
        ['batch-sync schema deal --method patch', "a deal item's shape for updates"],
      ),
    )
    .action((what: string, opts: { method: Method }, self: Command) => {
      const file = Object.hasOwn(FILE_SCHEMAS, what) ? FILE_SCHEMAS[what] : undefined;
      if (file) {
        if (self.getOptionValueSource('method') === 'cli') throw new UsageError(`--method chooses the item shape of a resource; the ${what} has one schema`);
        output.out(JSON.stringify(file(), null, 2));
        return;
      }
      const resource = parseResource(what);
      if (!resource) throw new UsageError(`unknown schema "${what}"`, { suggestion: `use plan, profile, or one of: ${RESOURCE_NAMES_HELP}` });
      output.out(JSON.stringify(itemJsonSchema(resource, opts.method), null, 2));
    });
}
