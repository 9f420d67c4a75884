// The one place the process's exit code is decided: commands return a code, typed errors map onto
// the contract, anything else is a bug and says how to report it.
import { Command, CommanderError } from 'commander';
import { BatchSyncError, EXIT } from './errors.js';
import { fdLimitMessage } from './fd-limit.js';
import { consoleOutput, type Output } from './report/output.js';
import { githubActions, invocation, plainTerminal } from './config/environment.js';
import { registerCommands } from './commands/index.js';
import { redact } from './redact.js';
import { asInvoked, visible } from './report/terminal-text.js';

import { VERSION } from './version.js';

export async function main(
  argv: string[],
  output: Output = consoleOutput({ plain: plainTerminal(undefined, argv), githubActions: githubActions() }),
): Promise<number> {
  let exitCode: number = EXIT.ok;
  // help, usage errors and suggestions name commands as the user runs them (`npx batch-sync push …`)
  const invoked = invocation();
  const says = (text: string) => asInvoked(text.replace(/\n$/, ''), invoked);
  const program = new Command('batch-sync')
    .description('Sync CSV and JSON exports from a CRM, ERP or spreadsheet into the batch integration API.')
    .version(VERSION)
    // read before parsing, for the output made before it (config/environment.ts plainTerminal)
    .option('--no-color', 'no colours in any line (also NO_COLOR=1, TERM=dumb; FORCE_COLOR=1 forces them)')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      `
Start here, no account needed:
  batch-sync push --sandbox --config fixtures/crm-sales-opportunities/batch-sync.config.json

Exit codes: 0 all accepted (or valid), 1 some rows not accepted, 2 usage, config
or input error before sending, 3 run aborted, 4 another run holds the lock.
Run \`batch-sync <command> --help\` for a command's options by task, \`--help-all\` for every option.`,
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => output.out(says(s)), writeErr: (s) => output.err(says(s)) });
  registerCommands(program, output, (code) => {
    exitCode = Math.max(exitCode, code);
  });
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(error, output, invoked);
  }
}

function reportError(error: unknown, output: Output, invoked: string): number {
  if (error instanceof CommanderError) {
    // help and version are "errors" to commander; real usage errors were already printed by it
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof BatchSyncError) {
    // one line each, whatever file name, hostname or server text they quote; a message that lists
    // several problems (a profile's) puts each on its own indented line, made visible alone
    const [first, ...more] = asInvoked(error.message, invoked).split(/\n(?= {2}\S)/);
    output.err(`${output.color.red('error:')} ${visible(first!)}`);
    for (const line of more) output.err(`  ${visible(line.slice(2))}`);
    if (error.suggestion) output.err(`  ${visible(asInvoked(error.suggestion, invoked))}`);
    return error.exitCode;
  }
  // out of file descriptors outside the send path (a module loaded late, an input opened): not a bug
  const fdLimit = fdLimitMessage(error, 'while preparing the run');
  if (fdLimit) {
    output.err(`${output.color.red('error:')} ${fdLimit}`);
    return EXIT.usage;
  }
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  output.err(`${output.color.red('internal error:')} this is a bug in batch-sync. Please report it with the command you ran and this text:`);
  output.err(redact(text));
  return EXIT.bug;
}
