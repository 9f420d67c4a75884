// Commands README.md and docs/*.md show, read from the documents themselves so a test runs them as written.
import { blockUnder, commandLines } from './doc-blocks.js';

/**
 * The `./bin/batch-sync.js …` lines of the first sh block under `heading` (e.g. `## The shipped fixtures`)
 * of `doc` (README.md or docs/<guide>.md), comments dropped, as `batch-sync …` (the arguments a test
 * passes to the built CLI follow the first word).
 */
export function docCommands(doc: string, heading: string): string[] {
  return commandLines(blockUnder(doc, heading).body)
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith('./bin/batch-sync.js '))
    .map((l) => `batch-sync ${l.slice('./bin/batch-sync.js '.length)}`);
}
