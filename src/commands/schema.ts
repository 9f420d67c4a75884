// `batch-sync schema <resource> [--method post|patch]`: the item's JSON Schema, from the zod contract.
import { Option, type Command } from 'commander';
import { itemJsonSchema } from '../contract/json-schema.js';
import { METHODS, RESOURCE_NAMES_HELP, parseResource, type Method } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import type { Output } from '../report/output.js';
import type { SetExit } from './set-exit.js';

export function registerSchema(program: Command, output: Output, _setExit: SetExit): void {
  program
    .command('schema')
    .description('print the JSON Schema of an item kind, generated from the contract')
    .argument('<resource>', RESOURCE_NAMES_HELP)
    .addOption(new Option('--method <method>', 'operation whose item shape to print').choices(METHODS).default('post'))
    .action((name: string, opts: { method: Method }) => {
      const resource = parseResource(name);
      if (!resource) throw new UsageError(`unknown resource "${name}"`, { suggestion: `use one of: ${RESOURCE_NAMES_HELP}` });
      output.out(JSON.stringify(itemJsonSchema(resource, opts.method), null, 2));
    });
}
