// `batch-sync completion bash|zsh|fish`: a shell completion script, made from the commands and
// options commander holds (so from the option tables): a new flag completes without a change here.
import { Argument, type Command } from 'commander';
import { UsageError } from '../errors.js';
import { singleQuoted } from '../util/shell-word.js';
import type { Output } from '../report/output.js';
import { examples } from './examples.js';
import type { SetExit } from './set-exit.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

interface Flag {
  long: string;
  short?: string;
  description: string;
}

interface CommandSpec {
  name: string;
  description: string;
  flags: Flag[];
}

/** Every command but this one, with its flags as typed (`--no-hold-dependents`, `-p`). */
function commandsOf(program: Command): CommandSpec[] {
  return program.commands
    .filter((c) => c.name() !== 'completion')
    .map((c) => ({
      name: c.name(),
      description: c.description(),
      flags: [
        ...c.options.map((o) => ({ long: o.long ?? '', short: o.short, description: o.description })),
        { long: '--help', description: 'display help' },
      ].filter((f) => f.long !== ''),
    }));
}

/** A description cut to its first clause: completion menus are one line each. */
const brief = (text: string) => text.split(/[;(]/)[0]!.trim().slice(0, 70);

function bash(commands: CommandSpec[]): string {
  const cases = commands.map((c) => `    ${c.name}) opts=${singleQuoted(c.flags.flatMap((f) => [f.long, f.short ?? []].flat()).join(' '))} ;;`);
  return `# batch-sync completion for bash: source it, e.g. from ~/.bashrc
_batch_sync() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" opts=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W ${singleQuoted(commands.map((c) => c.name).join(' '))} -- "$cur") )
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  else
    COMPREPLY=( $(compgen -f -- "$cur") )
  fi
}
complete -o default -F _batch_sync batch-sync
`;
}

/** zsh's `_arguments` spec for a flag: `'(-p --profile)'{-p,--profile}'[mapping profile]'`. */
function zshFlag(f: Flag): string {
  const about = `[${brief(f.description).replace(/[[\]:\\]/g, '\\$&')}]`;
  return f.short ? `'(${f.short} ${f.long})'{${f.short},${f.long}}${singleQuoted(about)}` : singleQuoted(`${f.long}${about}`);
}

function zsh(commands: CommandSpec[]): string {
  const list = commands.map((c) => `    ${singleQuoted(`${c.name}:${brief(c.description).replace(/:/g, '\\:')}`)}`);
  const cases = commands.map((c) => `    ${c.name}) _arguments ${c.flags.map(zshFlag).join(' ')} '*:file:_files' ;;`);
  return `#compdef batch-sync
# batch-sync completion for zsh: put it in a folder of $fpath as _batch-sync, or source it
_batch_sync() {
  local -a commands
  commands=(
${list.join('\n')}
  )
  if (( CURRENT == 2 )); then
    _describe command commands
    return
  fi
  shift words
  (( CURRENT-- ))
  case "$words[1]" in
${cases.join('\n')}
  esac
}
compdef _batch_sync batch-sync
`;
}

function fish(commands: CommandSpec[]): string {
  const lines = ['# batch-sync completion for fish: save it as ~/.config/fish/completions/batch-sync.fish', 'complete -c batch-sync -f'];
  for (const c of commands) lines.push(`complete -c batch-sync -n __fish_use_subcommand -a ${c.name} -d ${singleQuoted(brief(c.description))}`);
  for (const c of commands) {
    for (const f of c.flags) {
      const short = f.short ? ` -s ${f.short.slice(1)}` : '';
      lines.push(`complete -c batch-sync -n '__fish_seen_subcommand_from ${c.name}' -l ${f.long.slice(2)}${short} -d ${singleQuoted(brief(f.description))}`);
    }
    lines.push(`complete -c batch-sync -n '__fish_seen_subcommand_from ${c.name}' -F`);
  }
  return `${lines.join('\n')}\n`;
}

const SCRIPTS: Record<Shell, (commands: CommandSpec[]) => string> = { bash, zsh, fish };

export function registerCompletion(program: Command, output: Output, _setExit: SetExit): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish): commands and their flags complete on Tab')
    .addArgument(new Argument('<shell>', 'the shell the script is for').choices(SHELLS))
    .addHelpText(
      'after',
      examples(
        ['batch-sync completion bash > batch-sync.bash', 'then: source batch-sync.bash (or add that line to ~/.bashrc)'],
        ['batch-sync completion fish > batch-sync.fish'],
      ),
    )
    .action((shell: string) => {
      const script = SCRIPTS[shell as Shell];
      if (!script) throw new UsageError(`no completion for ${shell}: bash, zsh or fish`);
      output.out(script(commandsOf(program)).trimEnd());
    });
}
