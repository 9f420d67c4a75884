// After `push --sandbox`: what the embedded sandbox holds, and how to fix a run whose deals or
// activities name owners it cannot hold (it starts empty, and refuses a deal whose owner or agent,
// or an activity whose owner, it does not hold).
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RESOURCES, type Resource } from '../contract/resources.js';
import { kindFromFileName } from '../map/propose/guess-resource.js';
import { inputFiles } from './same-file.js';
import { plural } from './plural.js';
import { wrapText } from './terminal-text.js';

export interface SandboxHeld {
  records: Record<Resource, number>;
  batches: number;
  /**
   * Distinct owner/agent ids of the run's deals and activities that none of its sales profiles
   * carry, the first few named; `heldBack`: their rows were held back (else, with
   * --no-hold-dependents, sent and refused).
   */
  ownersMissing?: { count: number; ids: readonly string[]; heldBack: boolean };
}

/**
 * `files`: the files named on the command line (a plan's run has none); `inputs`: every file the
 * run read; `command`: how the user runs batch-sync (`npx batch-sync`), for the command the hint shows.
 * The hint names the missing ids, and the file that holds sellers: one of the run's, else one lying
 * beside the deals that the run did not read. Lines are short: they are read on a terminal.
 */
export function sandboxLines(held: SandboxHeld, files: readonly string[], inputs: readonly string[], command = 'npx batch-sync'): string[] {
  const holds = RESOURCES.map((r) => plural(held.records[r], r, r === 'activity' ? 'activities' : `${r}s`)).join(', ');
  const lines: string[] = [];
  const missing = held.ownersMissing;
  if (missing !== undefined && missing.count > 0) {
    const ids = plural(missing.count, 'owner/agent id');
    const shown = missing.ids.slice(0, 3);
    const more = missing.count > shown.length ? ` and ${missing.count - shown.length} more` : '';
    const named = `${shown.map((id) => JSON.stringify(id)).join(', ')}${more}`;
    const fate = missing.heldBack ? 'their rows were held back' : 'it refused their rows';
    lines.push(
      ...wrapText(
        `The embedded sandbox starts empty and refuses a deal or activity whose owner or agent it does not hold: ${ids} of this run's deals and activities ${missing.count === 1 ? 'is' : 'are'} in none of its sales profiles (${named}), so ${fate}.`,
      ),
    );
    const inRun = inputs.find(holdsSellers);
    const beside = inRun === undefined && files.length > 0 ? sellersBeside(files, inputs) : undefined;
    if (inRun !== undefined)
      lines.push(...wrapText(`Add ${missing.count === 1 ? 'it' : 'them'} to ${inRun}, which holds this run's sellers, then push again.`));
    else if (beside !== undefined)
      lines.push('Push the sellers in the same run (they are sent first, whatever the order):', `  ${command} push --sandbox ${beside} ${files.join(' ')}`);
    else
      lines.push(
        ...wrapText(
          `Add ${missing.count === 1 ? 'it' : 'them'} to the run's sales profiles (a users export, or profiles derived from the deals' owner column).`,
        ),
      );
  }
  lines.push(`The embedded sandbox now holds: ${holds} (${plural(held.batches, 'batch', 'batches')} received).`);
  return lines;
}

const DATA_FILE = /\.(csv|tsv|txt|json|ndjson|jsonl|xlsx|xlsm)$/i;

/** A file whose name says it holds sales profiles (`vendedores.csv`, `users.json`, `sales-profiles.csv`), as `init` reads names. */
const holdsSellers = (file: string) => DATA_FILE.test(file) && kindFromFileName(file)?.resource === 'sales-profile';

/** A sellers export beside one of the files and not read by the run (so the hint's command adds something), if any. */
function sellersBeside(files: readonly string[], inputs: readonly string[]): string | undefined {
  const read = inputFiles(inputs);
  for (const file of files) {
    const dir = dirname(file);
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const candidate = dir === '.' && !file.startsWith('./') ? name : join(dir, name);
      if (holdsSellers(name) && read.find(candidate) === undefined && statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    }
  }
  return undefined;
}
