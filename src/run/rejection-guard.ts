// Stops a run whose data is clearly broken (a column renamed upstream, making every row invalid)
// before it floods the API. It counts invalid and rejected rows as they are recorded and trips once
// either limit is passed; the run then takes no new batches and exits 3.
import { isDeliberateSkip, type RowOutcome } from '../plan/outcome.js';

/** The rate is judged only once this many rows have an outcome: 3 bad rows of the first 4 say nothing. */
const RATE_MIN_ROWS = 100;

export interface GuardLimits {
  /** More invalid + rejected rows than this stops the run. */
  maxRejections?: number;
  /** A larger share of invalid + rejected rows (0..1) stops the run, from RATE_MIN_ROWS rows on. */
  maxRejectionRate?: number;
}

export interface RejectionGuard {
  /** Count one outcome; returns the reason the first time a limit is passed. */
  record(o: RowOutcome): string | undefined;
  readonly tripped?: string;
}

export function createRejectionGuard(limits: GuardLimits): RejectionGuard | undefined {
  const { maxRejections, maxRejectionRate } = limits;
  if (maxRejections === undefined && maxRejectionRate === undefined) return undefined;
  let rows = 0;
  let failed = 0;
  let tripped: string | undefined;
  const because = (limit: string) => {
    const pct = Math.round((100 * failed) / rows);
    return `stopped: ${failed} of ${rows} ${rows === 1 ? 'row' : 'rows'} ${failed === 1 ? 'was' : 'were'} not accepted (${pct}% invalid or rejected), above ${limit}`;
  };
  return {
    get tripped() {
      return tripped;
    },
    record(o) {
      // rows left out on purpose are not part of the judgement
      if (tripped || isDeliberateSkip(o)) return undefined;
      rows++;
      if (o.outcome === 'invalid' || o.outcome === 'rejected') failed++;
      if (maxRejections !== undefined && failed > maxRejections) tripped = because(`--max-rejections ${maxRejections}`);
      else if (maxRejectionRate !== undefined && rows >= RATE_MIN_ROWS && failed / rows > maxRejectionRate)
        tripped = because(`--max-rejection-rate ${maxRejectionRate}`);
      return tripped;
    },
  };
}
