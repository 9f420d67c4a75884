// Issue 27 item 5: under GitHub Actions the runner reads every line a step prints, on stdout and
// stderr, for workflow commands (test/helpers/workflow-commands.ts is a port of its parser). Export
// data must never issue one: hostile cells and file names, through validate, push, init and history
// in every --format, with the two streams' lines merged in any order the runner's reading tasks
// allow. The tool's own annotations (--format github) must still arrive, whole, naming the file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { visible } from '../../src/report/terminal-text.js';
import { runCli, tempFiles } from '../helpers/cli.js';
import { parseWorkflowCommands, stepCommands } from '../helpers/workflow-commands.js';

// what a runner acts on, and what shifts where it looks: each fragment seen to work on a real runner
const FRAGMENTS = [
  '##[error file=evil.yml;line=1]pwned',
  '##[add-mask]Acme',
  '##[stop-commands]tok',
  '##[tok]',
  '##[warning]',
  '::error::forged',
  '::add-mask::batch-sync',
  '::stop-commands::tok',
  '::notice title=x::y',
  '#',
  '#\u200b',
  '\u200b',
  '[',
  ']',
  ':',
  '::',
  '=',
  ',',
  ';',
  '%',
  '%0A',
  ' ',
  '\t',
  '\r',
  '\n',
  'a',
  'Z',
];
const hostile = fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
// a file name holds anything but / and NUL (CR and LF included), and is not . or ..
const fileName = hostile.map((s) => `${s.replace(/\//g, '_')}.csv`);

/** A path as an annotation names it: CR and LF travel escaped (%0D, %0A) and come back; other controls are shown escaped, as on any log line. */
const shownPath = (path: string) =>
  path
    .split(/([\r\n])/)
    .map((part) => (part === '\r' || part === '\n' ? part : visible(part)))
    .join('');

type Command = 'validate' | 'push' | 'init' | 'history' | 'missing';
const csvCell = (s: string) => `"${s.replace(/"/g, '""')}"`;

interface Scenario {
  command: Command;
  format: 'human' | 'json' | 'github';
  cell: string;
  name: string;
  /** For each line the runner processes: from stdout (true) or stderr (false). */
  order: boolean[];
}

function argsFor(s: Scenario, dir: string, file: string): string[] {
  const format = ['--format', s.format];
  switch (s.command) {
    case 'validate':
      writeFileSync(file, `externalId,name,type\n${csvCell(s.cell)},${csvCell(s.cell)},${csvCell(s.cell)}\nok-1,Fine,COMPANY\n`);
      return ['validate', '--resource', 'account', ...format, file];
    case 'push':
      writeFileSync(file, `externalId,name,type\n${csvCell(s.cell)},${csvCell(s.cell)},COMPANY\nbad-2,${csvCell(s.cell)},${csvCell(s.cell)}\n`);
      return ['push', '--sandbox', '--resource', 'account', ...format, file];
    case 'init':
      writeFileSync(file, `externalId,${csvCell(s.cell)},name\nx-1,${csvCell(s.cell)},Acme\n`);
      return ['init', '--resource', 'account', '--out', join(dir, 'out.profile.json'), file];
    case 'history':
      mkdirSync(file);
      return ['history', '--report-dir', file, ...(s.format === 'json' ? format : [])];
    case 'missing':
      return ['validate', '--resource', 'account', ...format, file];
  }
}

test('no cell or file name issues a workflow command, in any command, format or interleaving of stdout and stderr; our annotations arrive', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        command: fc.constantFrom<Command>('validate', 'push', 'init', 'history', 'missing'),
        format: fc.constantFrom<Scenario['format']>('human', 'json', 'github'),
        cell: hostile,
        name: fileName,
        order: fc.array(fc.boolean(), { maxLength: 60 }),
      }),
      async (s) => {
        const dir = tempFiles({});
        const file = join(dir, s.name);
        const args = argsFor(s, dir, file);
        const r = await runCli(args, { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: dir, GITHUB_STEP_SUMMARY: join(dir, 'summary.md') });
        const runner = stepCommands(r.stdout, r.stderr, s.order, dir);
        expect(runner.masks).toEqual([]);
        expect(runner.stopped).toBe(false);
        const ours = s.format === 'github' && (s.command === 'validate' || s.command === 'push');
        if (!ours) {
          expect(runner.commands).toEqual([]);
          return;
        }
        // only issue commands, each titled by batch-sync and naming the file as it is, the run's summary last
        for (const c of runner.commands) {
          expect(['error', 'warning', 'notice']).toContain(c.command);
          expect(c.properties.title).toMatch(/^batch-sync/);
          if (c.properties.file !== undefined) expect(c.properties.file).toBe(shownPath(relative(dir, file)));
        }
        expect(runner.commands.at(-1)!.properties.title).toMatch(/^batch-sync (validate|push): /);
        if (r.code === 1) expect(runner.commands.some((c) => c.command === 'error' && c.properties.file !== undefined)).toBe(true);
        // and they are the very annotations the run prints outside GitHub Actions, read from its stdout alone
        const plain = await runCli(args, { GITHUB_ACTIONS: undefined, GITHUB_WORKSPACE: dir });
        expect(runner.commands).toEqual(parseWorkflowCommands(plain.stdout, dir));
      },
    ),
    { numRuns: 150 },
  );
}, 600_000);
