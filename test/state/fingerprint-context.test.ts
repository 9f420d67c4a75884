// A row's fingerprint context names everything its item depends on, code included: a checkout
// updated with git pull keeps its version number, so the context also digests the built reading,
// mapping and validation code. Two copies of the build differing in one mapper line must not share
// contexts (else rows fingerprinted by the old code would be taken as unchanged by the new one).
import { appendFileSync, cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import type { FingerprintContextParts } from '../../src/state/row-fingerprint.js';

const DIST = resolve(__dirname, '../../dist');
const parts: FingerprintContextParts = {
  method: 'post',
  resource: 'deal',
  header: ['externalId', 'title'],
  detected: { encoding: 'utf-8', delimiter: ',' },
  reader: {},
  profile: undefined,
};

/** A copy of the build (with the project's node_modules), optionally changed, and its context for `parts`. */
async function contextOfCopy(change?: (dist: string) => void): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'batch-sync-build-'));
  cpSync(DIST, join(root, 'dist'), { recursive: true });
  symlinkSync(resolve(__dirname, '../../node_modules'), join(root, 'node_modules'));
  change?.(join(root, 'dist'));
  const m = (await import(pathToFileURL(join(root, 'dist/state/row-fingerprint.js')).href)) as typeof import('../../src/state/row-fingerprint.js');
  return m.fingerprintContext(parts);
}

test('the same build gives the same context; a build whose mapper changed gives another', async () => {
  const original = await contextOfCopy();
  expect(await contextOfCopy()).toBe(original);
  expect(await contextOfCopy((dist) => appendFileSync(join(dist, 'map/canonical-mapper.js'), '\n// one line more\n'))).not.toBe(original);
  expect(await contextOfCopy((dist) => appendFileSync(join(dist, 'contract/fields.js'), '\n// one line more\n'))).not.toBe(original);
  // what the item does not depend on does not count
  expect(await contextOfCopy((dist) => appendFileSync(join(dist, 'send/api-client.js'), '\n// one line more\n'))).toBe(original);
});
