// Commands the README shows, read from the README itself so a test runs them as written.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The `batch-sync …` lines of the first sh block under `heading` (e.g. `### The shipped fixtures`), comments dropped. */
export function readmeCommands(heading: string): string[] {
  const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
  const block = readme.split(`\n${heading}\n`)[1]?.split('\n```sh\n')[1]?.split('\n```')[0];
  if (!block) throw new Error(`README has no "${heading}" section with a sh block`);
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith('batch-sync '));
}
