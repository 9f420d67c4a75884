// The real CRM exports shipped for issue 25 are the published bytes: each folder's SHA256SUMS is
// checked, and each folder names its source, commit and licence in its README.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const OUTSIDE = join(import.meta.dirname, '../../fixtures/outside');

test.each(['salesforce-data-loader', 'salesforce-tree-json', 'dynamics365-sales'])('%s is byte-identical to its source, with attribution', (dir) => {
  const sums = readFileSync(join(OUTSIDE, dir, 'SHA256SUMS'), 'utf8')
    .trim()
    .split('\n');
  expect(sums.length).toBeGreaterThanOrEqual(2);
  for (const line of sums) {
    const [sum, name] = line.split(/\s+\*?/) as [string, string];
    expect(
      createHash('sha256')
        .update(readFileSync(join(OUTSIDE, dir, name)))
        .digest('hex'),
      name,
    ).toBe(sum);
  }
  const readme = readFileSync(join(OUTSIDE, dir, 'README.md'), 'utf8');
  expect(readme).toMatch(/Source: https:\/\/github\.com\/\S+/);
  expect(readme).toMatch(/commit\s+[0-9a-f]{40}/);
  expect(readme).toMatch(/Licence: /);
});
