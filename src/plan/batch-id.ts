// Deterministic batch ids: `<source>-<resource>-<run id>-<seq>`. A retry reuses the batch's bytes,
// so it carries the same id; a bisected half gets a suffix so the server can tell them apart.

/** A run id sortable by time and unique enough across runs: `20261121T054456Z-3f9a`. */
export function newRunId(now = new Date(), random = Math.random): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const suffix = Math.floor(random() * 0x10000)
    .toString(16)
    .padStart(4, '0');
  return `${stamp}-${suffix}`;
}

export function batchId(source: string, resource: string, runId: string, seq: number): string {
  return `${source}-${resource}-${runId}-${String(seq).padStart(5, '0')}`;
}
