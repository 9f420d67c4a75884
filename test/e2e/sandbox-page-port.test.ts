// `batch-sync sandbox --page-port` on a port already taken: one line naming that port and the flag
// to change, exit 2, and the API's port released again.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

test('a --page-port in use is named with the flag that picks another', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as AddressInfo).port;
  try {
    const r = await spawnCli(['sandbox', '--port', '0', '--page-port', String(port), '--api-key', 'k'], { timeoutMs: 20_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    expect(r.stderr).toContain('--page-port');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  } finally {
    taken.close();
  }
});
