// --store: records survive a restart, the file is replaced atomically, and a file that is not a
// sandbox store is refused instead of overwritten.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { deal, profile, sandbox, sandboxWithProfiles, send } from '../helpers/sandbox.js';

const tempStore = () => join(mkdtempSync(join(tmpdir(), 'sandbox-store-')), 'store.json');

describe('persistence', () => {
  test('records are saved on close and loaded on the next start', async () => {
    const store = tempStore();
    const first = await sandboxWithProfiles({ store });
    await send(first, 'POST', 'deal', [deal('D1')]);
    await send(first, 'POST', 'account', [{ externalId: 'A1', name: 'Acme', type: 'CLIENT' }]);
    await first.close();

    const saved = JSON.parse(readFileSync(store, 'utf8'));
    expect(saved.version).toBe(1);
    expect(saved.records.deal).toEqual([deal('D1')]);
    expect(readdirSync(join(store, '..'))).toEqual(['store.json']); // no temp file left behind

    const second = await sandbox({ store });
    try {
      expect(second.records('sales-profile').map((p) => p.externalId)).toEqual(['ana', 'bruno']);
      expect(second.record('account', 'A1')).toEqual({ externalId: 'A1', name: 'Acme', type: 'CLIENT' });
      // loaded profiles count as owners, and loaded deals can be patched
      expect((await send(second, 'POST', 'deal', [deal('D2')])).body.data.success).toBe(1);
      expect((await send(second, 'PATCH', 'deal', [{ externalId: 'D1', isWon: true }])).body.data.success).toBe(1);
    } finally {
      await second.close();
    }
    expect(JSON.parse(readFileSync(store, 'utf8')).records.deal).toEqual([deal('D1', { isWon: true }), deal('D2')]);
  });

  test('flush() writes while running; saves are debounced, not one per batch', async () => {
    const store = tempStore();
    const sb = await sandbox({ store });
    try {
      await send(sb, 'POST', 'sales-profile', [profile('ana')]);
      expect(existsSync(store)).toBe(false);
      await sb.flush();
      expect(JSON.parse(readFileSync(store, 'utf8')).records['sales-profile']).toEqual([profile('ana')]);
      // without flush() the debounced save still lands on its own
      await send(sb, 'POST', 'sales-profile', [profile('bruno')]);
      await new Promise((r) => setTimeout(r, 600));
      expect(JSON.parse(readFileSync(store, 'utf8')).records['sales-profile']).toHaveLength(2);
    } finally {
      await sb.close();
    }
  });

  test('reset empties the store file too', async () => {
    const store = tempStore();
    const sb = await sandboxWithProfiles({ store });
    await sb.flush();
    sb.reset();
    await sb.close();
    expect(JSON.parse(readFileSync(store, 'utf8')).records['sales-profile']).toEqual([]);
  });

  test('a file that is not a sandbox store is refused and left alone', async () => {
    const store = tempStore();
    for (const content of ['{"not": "ours"}', 'garbage', '{"records": {"deal": [{"title": "no id"}]}}']) {
      writeFileSync(store, content);
      await expect(sandbox({ store })).rejects.toBeInstanceOf(ConfigError);
      expect(readFileSync(store, 'utf8')).toBe(content);
    }
  });

  test('a store that cannot be written is reported by close()', async () => {
    const store = join(tempStore(), 'missing-dir', 'store.json');
    const sb = await sandbox({ store });
    await send(sb, 'POST', 'sales-profile', [profile('ana')]);
    await expect(sb.close()).rejects.toThrow(/cannot save the sandbox store/);
  });
});
