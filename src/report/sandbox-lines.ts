// After `push --sandbox`: what the embedded sandbox holds, and how to fix a run whose deals name
// owners it cannot hold (it starts empty, and refuses a deal whose owner or agent it does not hold).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RESOURCES, type Resource } from '../contract/resources.js';
import { inputFiles } from './same-file.js';
import { plural } from './plural.js';

export interface SandboxHeld {
  records: Record<Resource, number>;
  batches: number;
  /**
   * Distinct owner/agent ids of the run's deals that none of its sales profiles carry, the first few
   * named; `heldBack`: their deals were held back (else, with --no-hold-dependents, sent and refused).
   */
  ownersMissing?: { count: number; ids: readonly string[]; heldBack: boolean };
}

/**
 * `files`: the files named on the command line (a plan's run has none); `inputs`: every file the
 * run read. The hint names the missing ids, and suggests a file only when one beside the deals is
 * not in the run already.
 */
export function sandboxLines(held: SandboxHeld, files: readonly string[], inputs: readonly string[]): string[] {
  const holds = RESOURCES.map((r) => plural(held.records[r], r, r === 'activity' ? 'activities' : `${r}s`)).join(', ');
  const lines: string[] = [];
  const missing = held.ownersMissing;
  if (missing !== undefined && missing.count > 0) {
    const ids = plural(missing.count, 'owner/agent id');
    const more = missing.count > missing.ids.length ? ` and ${missing.count - missing.ids.length} more` : '';
    const named = `${missing.ids.map((id) => JSON.stringify(id)).join(', ')}${more}`;
    lines.push(
      `The embedded sandbox starts empty and refuses a deal whose owner or agent it does not hold: ${ids} of this run's deals ${missing.count === 1 ? 'is' : 'are'} in none of its sales profiles (${named}), so ${missing.heldBack ? 'those deals were held back' : 'it refused those deals'}.`,
    );
    const beside = files.length > 0 ? salesProfilesBeside(files, inputs) : undefined;
    lines.push(
      beside !== undefined
        ? `Push the sales profiles in the same run, e.g.: batch-sync push --sandbox ${beside} ${files.join(' ')} (they are sent first, whatever the order).`
        : `Add ${missing.count === 1 ? 'it' : 'them'} to the run's sales profiles (a users export, or profiles derived from the deals file's owner column), then push again.`,
    );
  }
  lines.push(`The embedded sandbox now holds: ${holds} (${plural(held.batches, 'batch', 'batches')} received).`);
  return lines;
}

/** A sales-profiles export beside one of the files and not read by the run (so the hint's command adds something), if any. */
function salesProfilesBeside(files: readonly string[], inputs: readonly string[]): string | undefined {
  const read = inputFiles(inputs);
  for (const file of files) {
    for (const name of ['sales-profiles.csv', 'sales-profiles.json']) {
      const candidate = join(dirname(file), name);
      if (existsSync(candidate) && read.find(candidate) === undefined) return candidate;
    }
  }
  return undefined;
}
