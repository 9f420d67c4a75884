// What the GitHub Actions runner reads in a step's output: a port, written here from reading the
// runner's source (actions/runner, commit 258d6c857db3519913f7deb6004b60172f8043ae:
// src/Runner.Common/ActionCommand.cs TryParseV2 and TryParse, src/Runner.Worker/ActionCommandManager.cs
// TryProcessCommand, ValidateStopToken and IssueCommandExtension, src/Runner.Worker/Handlers/OutputManager.cs,
// src/Runner.Sdk/ProcessInvoker.cs; its own cases in src/Test/L0/Worker/ActionCommandL0.cs and
// ActionCommandManagerL0.cs are the oracle of test/helpers/workflow-commands.test.ts). Faithful in:
// - lines: stdout and stderr are read by StreamReader.ReadLine (a line ends at \n, \r or \r\n), each
//   stream in its own task into its own queue, so the two streams' lines interleave in any order;
// - every line goes to TryProcessCommand: first the `::name k=v,k=v::data` form (after TrimStart, at
//   the line's start), then the old `##[name k=v;k=v]data` form, found ANYWHERE in the line;
// - String.StartsWith/IndexOf(string) are culture-sensitive in .NET and the runner runs on ICU, which
//   skips default-ignorable code points (U+200B, U+00AD, U+FEFF…) while matching: so does this port,
//   which may then find a little more than an invariant-culture runner would, never less;
// - names are case-insensitive; properties split as String.Split(sep, RemoveEmptyEntries) and each
//   pair as Split('=', 2, RemoveEmptyEntries), which drops a value's leading '='s; the unescaping
//   order of each form;
// - stop-commands: the token becomes a registered command, every other command is ignored until
//   `::token::` or `##[token]` (anywhere in a line, in either form) resumes; an empty token, a
//   registered command's name or `pause-logging` is refused;
// - an annotation's `file` under the workspace is made relative to it (IOUtil.MakeRelative).
export interface WorkflowCommand {
  command: string;
  properties: Record<string, string>;
  message: string;
}

const REGISTERED = [
  'stop-commands',
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
];

// what ICU's collation ignores when matching (and C0/C1 controls other than the line breaks and tab)
const IGNORABLE = '[\\p{Default_Ignorable_Code_Point}\\u0000-\\u0008\\u000e-\\u001f\\u007f-\\u0084\\u0086-\\u009f]';
// .NET char.IsWhiteSpace
const WHITESPACE = /[\u0009-\u000d\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const cultural = (needle: string) => [...needle].map(escapeRegex).join(`${IGNORABLE}*`);

/** String.IndexOf(string, start) under ICU: the index of the needle's first character, or -1. */
function cultureIndexOf(s: string, needle: string, start = 0): number {
  const re = new RegExp(cultural(needle), 'gu');
  re.lastIndex = start;
  const m = re.exec(s);
  return m ? m.index : -1;
}

/** String.StartsWith(string) under ICU: ignorable code points before and inside the match are skipped. */
const cultureStartsWith = (s: string, needle: string) => new RegExp(`^${IGNORABLE}*${cultural(needle)}`, 'u').test(s);

function trimStart(s: string): string {
  let i = 0;
  while (i < s.length && WHITESPACE.test(s[i]!)) i++;
  return s.slice(i);
}

function trim(s: string): string {
  let end = s.length;
  while (end > 0 && WHITESPACE.test(s[end - 1]!)) end--;
  return trimStart(s.slice(0, end));
}

/** String.Split(sep, count, RemoveEmptyEntries): empty entries dropped; once count-1 are taken, the rest (its leading separators skipped) is the last. */
function splitRemoveEmpty(s: string, sep: string, count = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    if (out.length === count - 1) {
      while (s.startsWith(sep, at)) at += sep.length;
      if (at < s.length) out.push(s.slice(at));
      return out;
    }
    const next = s.indexOf(sep, at);
    const part = next < 0 ? s.slice(at) : s.slice(at, next);
    if (part) out.push(part);
    if (next < 0) return out;
    at = next + sep.length;
  }
}

/** Replacement by replacement, in the runner's order (String.Replace is ordinal). */
const unescapeWith = (pairs: Array<[string, string]>) => (s: string) => pairs.reduce((t, [escaped, plain]) => t.split(escaped).join(plain), s);
const unescapeV1 = unescapeWith([
  ['%3B', ';'],
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%5D', ']'],
  ['%25', '%'],
]);
const unescapeData = unescapeWith([
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%25', '%'],
]);
const unescapeProperty = unescapeWith([
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%3A', ':'],
  ['%2C', ','],
  ['%25', '%'],
]);

interface Parsed {
  command: string;
  properties: Map<string, { key: string; value: string }>;
  data: string;
}

function propertiesOf(text: string, separator: string, unescape: (s: string) => string): Parsed['properties'] {
  const properties: Parsed['properties'] = new Map();
  for (const pair of splitRemoveEmpty(text, separator)) {
    const kv = splitRemoveEmpty(pair, '=', 2);
    if (kv.length !== 2) continue;
    const key = kv[0]!.toLowerCase();
    // a Dictionary with OrdinalIgnoreCase: a second spelling of a key replaces the value, keeps the first key
    properties.set(key, { key: properties.get(key)?.key ?? kv[0]!, value: unescape(kv[1]!) });
  }
  return properties;
}

/** ActionCommand.TryParseV2: `::name props::data` at the start of the (left-trimmed) line. */
function parseV2(line: string, registered: ReadonlySet<string>): Parsed | undefined {
  const message = trimStart(line);
  if (!cultureStartsWith(message, '::')) return undefined;
  const end = cultureIndexOf(message, '::', 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  if (!registered.has(command.toLowerCase())) return undefined;
  const properties = space > 0 ? propertiesOf(trim(info.slice(space + 1)), ',', unescapeProperty) : new Map();
  return { command, properties, data: unescapeData(message.slice(end + 2)) };
}

/** ActionCommand.TryParse: `##[name props]data` anywhere in the line. */
function parseV1(line: string, registered: ReadonlySet<string>): Parsed | undefined {
  const prefix = cultureIndexOf(line, '##[');
  if (prefix < 0) return undefined;
  const rb = line.indexOf(']', prefix);
  if (rb < 0) return undefined;
  const info = line.slice(prefix + 3, rb);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  if (!registered.has(command.toLowerCase())) return undefined;
  const properties = space > 0 ? propertiesOf(info.slice(space + 1), ';', unescapeV1) : new Map();
  return { command, properties, data: unescapeV1(line.slice(rb + 1)) };
}

/** IOUtil.MakeRelative on a Linux runner: a path under the workspace loses it. */
function makeRelative(path: string, folder: string): string {
  if (!path.startsWith(folder)) return path;
  if (path.length === folder.length) return '';
  if (folder.endsWith('/')) return path.slice(folder.length);
  return path[folder.length] === '/' ? path.slice(folder.length + 1) : path;
}

/** One step's command manager: feed it lines in the order the runner would process them. */
export class RunnerModel {
  /** Every command the runner acted on (a stop and its resume included), in order. */
  readonly commands: WorkflowCommand[] = [];
  /** Values `add-mask` registered: the runner masks them in all later output. */
  readonly masks: string[] = [];
  private readonly registered = new Set(REGISTERED);
  private stopToken: string | undefined;

  constructor(private readonly workspace?: string) {}

  get stopped(): boolean {
    return this.stopToken !== undefined;
  }

  /** ActionCommandManager.TryProcessCommand for one line; true when the runner took it as a command. */
  feed(line: string): boolean {
    if (!line) return false;
    const parsed = parseV2(line, this.registered) ?? parseV1(line, this.registered);
    if (!parsed) return false;
    const name = parsed.command.toLowerCase();
    if (this.stopToken !== undefined) {
      if (name !== this.stopToken.toLowerCase()) return false;
      this.registered.delete(this.stopToken.toLowerCase());
      this.stopToken = undefined;
      this.commands.push(this.record(parsed));
      return true;
    }
    if (name === 'stop-commands') {
      const token = parsed.data;
      // ValidateStopToken throws for these: the line is an error, and nothing stops
      if (!token || this.registered.has(token.toLowerCase()) || token.toLowerCase() === 'pause-logging') return true;
      this.stopToken = token;
      this.registered.add(token.toLowerCase());
    }
    if (name === 'add-mask' && parsed.data.trim()) this.masks.push(parsed.data);
    this.commands.push(this.record(parsed));
    return true;
  }

  private record(parsed: Parsed): WorkflowCommand {
    const properties: Record<string, string> = {};
    for (const { key, value } of parsed.properties.values()) properties[key] = value;
    const file = properties.file;
    if (this.workspace !== undefined && file && ['error', 'warning', 'notice'].includes(parsed.command.toLowerCase())) {
      const relative = makeRelative(file, this.workspace);
      if (relative !== file && relative) properties.file = relative;
    }
    return { command: parsed.command, properties, message: parsed.data };
  }
}

/** A stream's lines as StreamReader.ReadLine gives them: ended by \n, \r or \r\n. */
export function runnerLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The commands the runner reads in one stream's text (a fresh step). */
export function parseWorkflowCommands(text: string, workspace?: string): WorkflowCommand[] {
  const runner = new RunnerModel(workspace);
  for (const line of runnerLines(text)) runner.feed(line);
  return runner.commands;
}

/**
 * The commands the runner reads in a step's stdout and stderr, their lines merged in the order
 * `takeStdout` picks (one boolean per line; when a stream runs out the other's lines follow): each
 * stream's own order is kept, as the runner's two reading tasks keep it, and nothing else is.
 */
export function stepCommands(stdout: string, stderr: string, takeStdout: readonly boolean[], workspace?: string): RunnerModel {
  const out = runnerLines(stdout);
  const err = runnerLines(stderr);
  const runner = new RunnerModel(workspace);
  let o = 0;
  let e = 0;
  for (let i = 0; o < out.length || e < err.length; i++) {
    const fromOut = e >= err.length || (o < out.length && (takeStdout[i] ?? true));
    runner.feed(fromOut ? out[o++]! : err[e++]!);
  }
  return runner;
}
