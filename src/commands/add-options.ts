// A command's option table (config/options.ts) as commander options, and back: the options given
// on the command line, by the table's keys, with what cannot go together refused.
import { Option, type Command } from 'commander';
import { checkCombinations, choicesOf, type GivenFlags, type OptionTable } from '../config/option.js';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function addOptions(command: Command, table: OptionTable): Command {
  for (const row of Object.values(table)) {
    if (row.flag === undefined) continue;
    const option = new Option(row.flag, row.schema.description);
    const choices = choicesOf(row);
    if (choices) option.choices(choices);
    if (row.repeatable) option.argParser(collect);
    if (row.helpDefault !== undefined) option.default(row.helpDefault);
    command.addOption(option);
  }
  return command;
}

/** Only what was typed: a default (or `--no-x`'s implied true) is left to the settings to decide. */
export function givenFlags(command: Command, table: OptionTable): GivenFlags {
  const given: GivenFlags = {};
  for (const [key, row] of Object.entries(table)) {
    if (row.flag === undefined) continue;
    const name = new Option(row.flag).attributeName();
    if (command.getOptionValueSource(name) === 'cli') given[key] = command.getOptionValue(name) as GivenFlags[string];
  }
  checkCombinations(table, given);
  return given;
}
