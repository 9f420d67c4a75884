// After `push --sandbox`: what the embedded sandbox holds, and how to fix a run it refused for want
// of owners.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RESOURCES, type Resource } from '../contract/resources.js';
import type { RunReport } from './run-report.js';
import { plural } from './plural.js';

export interface SandboxHeld {
  records: Record<Resource, number>;
  batches: number;
}

export function sandboxLines(held: SandboxHeld, report: RunReport, files: readonly string[]): string[] {
  const holds = RESOURCES.map((r) => plural(held.records[r], r, r === 'activity' ? 'activities' : `${r}s`)).join(', ');
  const lines: string[] = [];
  if (ownersMissing(report)) {
    const example =
      files.length > 0 ? `batch-sync push --sandbox ${salesProfilesBeside(files)} ${files.join(' ')}` : 'add the sales-profiles file as a job of the plan';
    const ids = plural(report.ownersNotInRun, "owner/agent id of this run's deals is", "owner/agent ids of this run's deals are");
    lines.push(
      `The embedded sandbox starts empty: ${ids} in none of its sales profiles, and it refuses a deal whose owner or agent it does not hold.`,
      `Push the sales profiles in the same run, e.g.: ${example} (they are sent first, whatever the order).`,
    );
  }
  lines.push(`The embedded sandbox now holds: ${holds} (${plural(held.batches, 'batch', 'batches')} received).`);
  return lines;
}

/** A sales-profiles export beside one of the files (so the hint's command runs as printed), else a placeholder. */
function salesProfilesBeside(files: readonly string[]): string {
  for (const file of files) {
    for (const name of ['sales-profiles.csv', 'sales-profiles.json']) {
      const candidate = join(dirname(file), name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return 'sales-profiles.csv';
}

/**
 * The embedded sandbox refused (or would not confirm) rows, and the run's deals name owners that no
 * sales profile of the run carries: the sandbox, empty at start, cannot hold them. Judged from the
 * run's own data, not the server's wording, which names no item in the documented answer style.
 */
function ownersMissing(report: RunReport): boolean {
  const refused = report.groups.some((g) => g.outcome === 'rejected' || (g.outcome === 'skipped' && g.label.startsWith('UNVERIFIED')));
  return refused && report.ownersNotInRun > 0;
}
