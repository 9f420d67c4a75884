// The commands README.md and docs/*.md show, read from the documents themselves so that tests run
// them as written. The convention (ARCHITECTURE.md, "Documented commands are tests"):
//
//   ```sh                  run: each command line, in order, in one working folder per document
//   ```sh server           a command that runs until stopped (the sandbox): started in the background
//   ```<lang> not-run: WHY shown, not run, for the reason given (a crontab, a workflow, the real API…)
//   ```text output         what the command run just before printed: every line must be in its output
//   ```<lang> file=PATH    a file the reader is shown; written into the working folder at that point
//
// A shell block (sh, bash, shell, console, cron, yaml) that is neither run nor marked not run is an
// error. `# exit N` after a command is the exit code it must end with (0 when nothing is said). A
// sentence "In `FILE`, [on line N,] replace `A` with `B` [and `C` with `D`]" is an edit the test
// makes as the reader would, before the next command.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');

const SHELL = new Set(['sh', 'bash', 'shell']);
const MUST_BE_MARKED = new Set([...SHELL, 'console', 'cron', 'crontab', 'yaml', 'yml']);
const COMMANDS = 'push|validate|init|inspect|schema|sandbox|history|help';
/** `batch-sync <command>` not preceded by `npx ` or a path (a summary line's `batch-sync push:` is output, not a command). */
const BARE = new RegExp(`(?<!npx )(?<![\\w./-])batch-sync (?:${COMMANDS})\\b(?!:)`);
const EDIT = /\bIn `([^`]+)`,? (?:on line (\d+), )?replace ((?:`[^`]+` with `[^`]+`(?:,? and )?)+)/g;

interface At {
  doc: string;
  /** 1-based line of the document where the block or sentence starts. */
  line: number;
}
export type Step =
  | (At & { kind: 'run'; command: string; exit: number })
  | (At & { kind: 'server'; command: string })
  | (At & { kind: 'output'; lines: string[] })
  | (At & { kind: 'file'; path: string; text: string })
  | (At & { kind: 'edit'; path: string; atLine?: number; from: string; to: string });
interface NotRun extends At {
  lang: string;
  reason: string;
  commands: string[];
}
export interface Block extends At {
  lang: string;
  info: string;
  /** The block's text, its indentation (inside a list item) removed. */
  body: string;
  /** The heading the block is under (`## Set-up`). */
  heading: string;
}
export interface Doc {
  path: string;
  blocks: Block[];
  steps: Step[];
  notRun: NotRun[];
  /** Blocks or lines that break the convention. */
  problems: string[];
}

/** README.md and every docs/*.md, as paths relative to the repository. */
export function docFiles(root = ROOT): string[] {
  const docs = existsSync(join(root, 'docs')) ? readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')) : [];
  return ['README.md', ...docs.sort().map((f) => `docs/${f}`)];
}

/** The logical lines of a shell block: continuation lines joined, blank and comment-only lines left out. */
export function commandLines(body: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of body.split('\n')) {
    const line = pending + raw;
    if (/\\\s*$/.test(line)) {
      pending = `${line.replace(/\\\s*$/, '').trimEnd()} `;
      continue;
    }
    pending = '';
    if (line.trim() && !line.trim().startsWith('#')) out.push(line.trim());
  }
  return out;
}

/** The comment that ends a command line (from a `#` after a space, outside quotes), if any. */
function trailingComment(line: string): string {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && i > 0 && /\s/.test(line[i - 1]!)) return line.slice(i);
  }
  return '';
}

function statedExit(line: string): number {
  const m = /^#\s*exit (\d+)\b/.exec(trailingComment(line));
  return m ? Number(m[1]) : 0;
}

/** The fenced blocks of a Markdown text, with the heading each is under. */
function fencedBlocks(doc: string, text: string): Array<Block & { before: string; beforeLine: number }> {
  const lines = text.split('\n');
  const blocks: Array<Block & { before: string; beforeLine: number }> = [];
  let heading = '';
  let prose: string[] = [];
  let proseLine = 1;
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(.*)$/.exec(lines[i]!);
    if (!open) {
      if (/^#{1,6} /.test(lines[i]!)) heading = lines[i]!.trim();
      if (!prose.length) proseLine = i + 1;
      prose.push(lines[i]!.trim());
      continue;
    }
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !new RegExp(`^\\s*${fence}\\s*$`).test(lines[j]!); j++) {
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!.trimStart());
    }
    const lang = info.trim().split(/\s+/)[0] ?? '';
    blocks.push({ doc, line: i + 1, lang, info: info.trim(), body: body.join('\n'), heading, before: prose.join(' '), beforeLine: proseLine });
    prose = [];
    i = j;
  }
  blocks.push({ doc, line: lines.length, lang: '', info: '', body: '', heading, before: prose.join(' '), beforeLine: proseLine });
  return blocks;
}

function edits(doc: string, line: number, prose: string): Step[] {
  const out: Step[] = [];
  for (const m of prose.matchAll(EDIT)) {
    for (const pair of m[3]!.matchAll(/`([^`]+)` with `([^`]+)`/g)) {
      out.push({ kind: 'edit', doc, line, path: m[1]!, atLine: m[2] ? Number(m[2]) : undefined, from: pair[1]!, to: pair[2]! });
    }
  }
  return out;
}

/** What the test does with each block of a document, and what in it breaks the convention. */
export function readDoc(path: string, root = ROOT): Doc {
  const doc: Doc = { path, blocks: [], steps: [], notRun: [], problems: [] };
  const text = readFileSync(join(root, path), 'utf8');
  for (const b of fencedBlocks(path, text)) {
    doc.steps.push(...edits(path, b.beforeLine, b.before));
    if (!b.info) continue;
    doc.blocks.push(b);
    const rest = b.info.slice(b.lang.length).trim();
    const where = `${path}:${b.line}`;
    const file = /^file=(\S+)$/.exec(rest);
    if (SHELL.has(b.lang) && rest === '') {
      for (const command of commandLines(b.body)) doc.steps.push({ kind: 'run', doc: path, line: b.line, command, exit: statedExit(command) });
    } else if (SHELL.has(b.lang) && rest === 'server') {
      for (const command of commandLines(b.body)) doc.steps.push({ kind: 'server', doc: path, line: b.line, command });
    } else if (rest.startsWith('not-run:')) {
      const reason = rest.slice('not-run:'.length).trim();
      if (!reason) doc.problems.push(`${where}: a block marked not-run says no reason`);
      const commands = b.lang === 'yaml' || b.lang === 'yml' ? b.body.split('\n').filter((l) => /\bbatch-sync\b/.test(l)) : commandLines(b.body);
      doc.notRun.push({ doc: path, line: b.line, lang: b.lang, reason, commands });
    } else if (b.lang === 'text' && rest === 'output') {
      if (!doc.steps.some((s) => s.kind === 'run')) doc.problems.push(`${where}: output quoted before any command ran`);
      doc.steps.push({ kind: 'output', doc: path, line: b.line, lines: b.body.split('\n').filter((l) => l.trim()) });
    } else if (file) {
      doc.steps.push({ kind: 'file', doc: path, line: b.line, path: file[1]!, text: `${b.body}\n` });
    } else if (MUST_BE_MARKED.has(b.lang)) {
      doc.problems.push(`${where}: a ${b.lang} block is neither run (\`\`\`sh) nor marked \`\`\`${b.lang} not-run: <reason>`);
    }
    if (MUST_BE_MARKED.has(b.lang)) {
      for (const l of b.body.split('\n')) if (BARE.test(l)) doc.problems.push(`${where}: "${l.trim()}" is not written ./bin/batch-sync.js`);
    }
  }
  let fenced = '';
  for (const [i, line] of text.split('\n').entries()) {
    const fence = /^\s*(`{3,})/.exec(line)?.[1];
    if (fence && (!fenced || fence === fenced)) fenced = fenced ? '' : fence;
    if (fence || fenced) continue;
    for (const span of line.matchAll(/`(batch-sync [^`]*)`/g)) {
      if (BARE.test(span[1]!)) doc.problems.push(`${path}:${i + 1}: \`${span[1]}\` is not written ./bin/batch-sync.js`);
    }
  }
  return doc;
}

/** The first block of `lang` under `heading` (e.g. `## Set-up`) of a document. */
export function blockUnder(path: string, heading: string, lang = 'sh'): Block {
  const block = readDoc(path).blocks.find((b) => b.heading === heading && b.lang === lang);
  if (!block) throw new Error(`${path} has no ${lang} block under "${heading}"`);
  return block;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, `-`, `_` kept), spaces as `-`. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replaceAll(' ', '-');
}

/** The anchors of a Markdown file's headings (outside fenced blocks). */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) out.add(anchor(line.replace(/^#+ /, '')));
  }
  return out;
}

/** Links from README.md, docs/*.md, ARCHITECTURE.md and BENCHMARKS.md to a file or heading that is not there. */
export function brokenLinks(root = ROOT): string[] {
  const broken: string[] = [];
  for (const doc of [...docFiles(root), 'ARCHITECTURE.md', 'BENCHMARKS.md']) {
    const text = readFileSync(join(root, doc), 'utf8').replace(/^\s*```[\s\S]*?^\s*```/gm, '');
    for (const [, url] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(url!)) continue;
      const [path, fragment] = url!.split('#') as [string, string | undefined];
      const target = path ? join(dirname(join(root, doc)), path) : join(root, doc);
      if (!existsSync(target)) broken.push(`${doc}: ${url}: no such file`);
      else if (fragment && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(fragment)) broken.push(`${doc}: ${url}: no such heading`);
    }
  }
  return broken;
}
