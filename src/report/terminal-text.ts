// Text from outside (CSV cells, file names, server answers, a lock's hostname, a batchId) must not
// act on the terminal or the log it is printed to: a carriage return and an erase (`\r…\e[K`)
// would overwrite a report line, OSC 8 links and title sequences would reach the terminal. They are
// shown escaped instead, in the JSON notation (`\r`, `\u001b`): readable, and where the text is JSON
// (`--format json` on stdout) an escape that means the same character, so the JSON stays valid and
// its values exact. Files (report.json, the errors CSV) are not terminals: they keep the bytes.

/** C0 and C1 controls, DEL, and the Unicode line separators and bidirectional overrides. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT: Record<string, string> = { '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

const escapeChar = (ch: string) => SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** One value (an externalId, a server message, a file name) as one inert line: newlines escaped too. */
export function visible(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Every string inside plain data (a report), made visible; other values (numbers, dates) kept. */
export function visibleStrings<T>(value: T): T {
  if (typeof value === 'string') return visible(value) as T;
  if (Array.isArray(value)) return value.map(visibleStrings) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visibleStrings(v)])) as T;
  }
  return value;
}

// the colours our renderers use (bold, dim, red, green, yellow, and their ends): the only escape
// sequences let through, and only when colour is on
const OUR_SGR = /\u001b\[(?:1|2|22|31|32|33|39)m/y;

/**
 * The last line of defence, for whole lines about to be written: keeps newlines (a report is many
 * lines) and, when `colors` is set, our own colour sequences; escapes every other control.
 */
export function terminalSafe(text: string, colors: boolean): string {
  return text.replace(UNSAFE, (ch, at: number) => {
    if (ch === '\n') return ch;
    if (colors && ch === '\u001b') {
      OUR_SGR.lastIndex = at;
      if (OUR_SGR.test(text)) return ch;
    }
    return escapeChar(ch);
  });
}

/** Text broken at spaces into lines of at most `width` characters (a longer word keeps its own line). */
export function wrapText(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

const COMMANDS = 'push|validate|init|inspect|history|schema|sandbox|completion|<command>';
const BARE_COMMAND = new RegExp(`(?<![\\w/.-]|npx )batch-sync (?=(?:${COMMANDS}) )`, 'g');

/** `batch-sync push …` in a hint or an example, written the way the user runs batch-sync (`npx batch-sync push …`). */
export function asInvoked(text: string, command: string): string {
  return command === 'batch-sync' ? text : text.replace(BARE_COMMAND, () => `${command} `);
}
