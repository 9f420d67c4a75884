// Under GitHub Actions the runner reads every line a step prints, on stdout and stderr, for
// workflow commands: `::name …::` at a line's start (after spaces) and the older `##[name …]`
// anywhere in it. A cell `##[add-mask]…`, a file name `::error::…` or `##[stop-commands]tok` would
// then act: a forged annotation, later log text masked, batch-sync's own annotations silenced. So,
// when GITHUB_ACTIONS=true, every line of data-carrying output is made inert here: a `#` that
// completes `##[` and the first `:` of a leading `::` are written in JSON's notation (`\u0023`,
// `\u003a`), as terminal-text.ts writes controls, so `--format json` stays valid JSON with exact
// values. The runner matches with ICU, which skips default-ignorable characters (U+200B…): they
// may stand between the characters here too. Only the tool's own workflow commands
// (render-github.ts) are written as they are.
//
// Why not the runner's `::stop-commands::<token>` … `::<token>::` around the output instead: the
// runner reads stdout and stderr in two tasks into two queues, so a stop on one stream does not
// order the other stream's lines; and a run killed before its resume line would leave every later
// command of the step ignored. A line made inert needs no state (test/helpers/workflow-commands.ts).

const IGNORABLE = '[\\p{Default_Ignorable_Code_Point}]*';
const OLD_FORM = new RegExp(`#(${IGNORABLE})#(${IGNORABLE})\\[`, 'gu');
// .NET's TrimStart removes its whitespace (\s and U+0085 here), then StartsWith('::') skips ignorables
const NEW_FORM = new RegExp(`^([\\s\\u0085]*${IGNORABLE}):(${IGNORABLE}):`, 'u');

/** One line no runner takes for a command. */
function inertLine(line: string): string {
  return line.replace(OLD_FORM, '#$1\\u0023$2[').replace(NEW_FORM, '$1\\u003a$2:');
}

/** Text about to be written (lines ended by \n: controls such as \r are already escaped), every line made inert. */
export function inertWorkflowText(text: string): string {
  return text.includes('#') || text.includes(':') ? text.split('\n').map(inertLine).join('\n') : text;
}
