// A command's option table (config/options.ts) as commander options, and back: the options given
// on the command line, by the table's keys, with what cannot go together refused. The table's
// groups make `--help` short (each task's flags on a line or two) and `--help-all` complete.
import { Help, Option, type Command } from 'commander';
import { checkCombinations, choicesOf, HELP_GROUPS, type GivenFlags, type HelpGroup, type OptionRow, type OptionTable } from '../config/option.js';
import { wrapText } from '../report/terminal-text.js';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const NBSP = '\u00a0';
const ORDER = Object.keys(HELP_GROUPS) as HelpGroup[];
const rank = (row: OptionRow) => (row.group === undefined ? ORDER.length : ORDER.indexOf(row.group));

export function addOptions(command: Command, table: OptionTable): Command {
  // listed by task, in the table's order within each
  const rows = Object.values(table)
    .filter((row) => row.flag !== undefined)
    .sort((a, b) => rank(a) - rank(b));
  for (const row of rows) {
    const option = new Option(row.flag!, row.schema.description);
    const choices = choicesOf(row);
    if (choices) option.choices(choices);
    if (row.repeatable) option.argParser(collect);
    if (row.helpDefault !== undefined) option.default(row.helpDefault);
    if (row.group) option.helpGroup(`${HELP_GROUPS[row.group]}:`);
    command.addOption(option);
  }
  // a table wholly by task (validate's, push's) gets the short help; a command's few options of its own are listed whole
  helpByTask(command, rows.length > 0 && rows.every((row) => row.group !== undefined));
  return command;
}

/** `--help`: each task's flags named on a line or two (when the table has tasks); `--help-all`: every flag with what it does. */
function helpByTask(command: Command, grouped: boolean): void {
  let all = !grouped;
  command.addOption(new Option('--help-all', 'every option, with what it does').helpGroup('Help:'));
  command.on('option:help-all', () => {
    all = true;
    command.help();
  });
  command.configureHelp({
    formatHelp(cmd, helper) {
      if (all) return Help.prototype.formatHelp.call(helper, cmd, helper);
      const lines = [`Usage: ${helper.commandUsage(cmd)}`, '', cmd.description(), ''];
      const byGroup = new Map<string, string[]>();
      for (const option of helper.visibleOptions(cmd)) {
        const heading = option.long === '--help' ? 'Help:' : (option.helpGroupHeading ?? 'Options:');
        // a flag and its value stay on one line: only the separators break
        byGroup.set(heading, [...(byGroup.get(heading) ?? []), option.flags.replaceAll(' ', NBSP)]);
      }
      const width = Math.max(...[...byGroup.keys(), 'Arguments:'].map((h) => h.length)) + 2;
      const block = (heading: string, text: string) =>
        wrapText(text, 98 - width).map((line, i) => `${(i === 0 ? heading : '').padEnd(width)}${line.replaceAll(NBSP, ' ')}`);
      for (const [heading, flags] of byGroup) lines.push(...block(heading, flags.join(`${NBSP}· `)));
      for (const a of helper.visibleArguments(cmd)) lines.push('', ...block('Arguments:', `${a.name()}${a.variadic ? '...' : ''}: ${a.description}`));
      lines.push('', `Every option with what it does: batch-sync ${cmd.name()} --help-all`);
      return `${lines.join('\n')}\n`;
    },
  });
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
