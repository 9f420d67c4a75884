// Stray NULs in a CSV's cells (issue 36): removed, each cell named once, the warnings bounded, on the
// reader of either engine.
import { describe, expect, it } from 'vitest';
import { openSource } from '../../src/read/open.js';
import type { SourceRecord } from '../../src/read/types.js';
import { tempDir } from './helpers.js';

const file = tempDir();

describe.each([true, false])('stray NULs (fast parser: %s)', (fast) => {
  it('past 20 cells, one line counts the rest; the cells hold no NUL', async () => {
    const rows = ['id,notes', ...Array.from({ length: 5000 }, (_, i) => `${i},"plain text of row ${i}, long enough to be text"`)];
    for (let i = 1; i <= 25; i++) rows[i * 100] = `${i * 100 - 1},"a\u0000b"`;
    const source = await openSource(file(`many-${fast}.csv`, `${rows.join('\n')}\n`), {}, fast);
    const records: SourceRecord[] = [];
    for await (const record of source.records) records.push(record);
    const warnings = source.warnings.map((w) => w.message);
    expect(records).toHaveLength(5000);
    expect(JSON.stringify(records)).not.toContain('\\u0000');
    expect(warnings.filter((w) => w.includes('held 1 NUL byte'))).toHaveLength(20);
    expect(warnings).toContain('5 more cells held NUL bytes (the last on line 2501): removed');
  });
});
