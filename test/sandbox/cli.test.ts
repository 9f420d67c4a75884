// `batch-sync sandbox` as a user runs it: option checks (exit 2) in-process, and the built CLI as a
// child process that prints its URL, answers, and saves its store when stopped with SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, test } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';

describe('bad option values exit 2 naming the flag', () => {
  test.each([
    [['--port', 'abc'], '--port takes a number'],
    [['--port', '70000'], '--port:'],
    [['--fail-rate', '1.5'], '--fail-rate:'],
    [['--fail-rate', '-0.1'], '--fail-rate:'],
    [['--max-items', '0'], '--max-items:'],
    [['--max-body-bytes', '1.5'], '--max-body-bytes:'],
    [['--rate-limit', '0'], '--rate-limit:'],
    [['--rate-burst', '3'], '--rate-burst: goes with --rate-limit'],
    [['--rate-limit', '5', '--rate-burst', '0'], '--rate-burst:'],
    [['--capacity', '0'], '--capacity:'],
    [['--latency', '-5'], '--latency:'],
    [['--api-key', ''], '--api-key:'],
  ])('%j', async (args, message) => {
    const r = await runCli(['sandbox', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${message}`);
  });
  test('a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(['sandbox', '--port', String(port)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      blocker.close();
    }
  });
});

describe('the built CLI (npm run build first)', () => {
  test('prints URL and key, answers batches, logs them, saves the store on SIGTERM', async () => {
    const store = join(mkdtempSync(join(tmpdir(), 'sandbox-cli-')), 'store.json');
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--store', store], {
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', BATCH_SYNC_SANDBOX_API_KEY: 'from-env-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout });
        lines.on('line', (line) => {
          stdout += `${line}\n`;
          const match = /^sandbox listening on (http:\/\/\S+)$/.exec(line);
          if (match) resolve(match[1]!);
        });
        child.on('close', () => reject(new Error(`exited early: ${stderr}`)));
      });
      const res = await fetch(`${url}/v2/integration/sales-profile`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'from-env-key' },
        body: JSON.stringify({
          batchId: 'cli-1',
          source: 'e2e',
          items: [{ externalId: 'ana', email: 'ana@example.com', profile: { firstName: 'Ana', lastName: '' } }],
        }),
      });
      expect(await res.json()).toEqual({ data: { code: 200, success: 1, error: [] }, status: 'SUCCESS' });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout).toContain('API key: from-env-key\n');
    expect(stdout).toMatch(/BATCH_SYNC_BASE_URL=http:\/\/127\.0\.0\.1:\d+ BATCH_SYNC_API_KEY=from-env-key/);
    expect(stderr).toContain('#1 POST sales-profile batchId=cli-1: 1 item, 1 accepted, 0 errors (data.code 200)');
    expect(stderr).toContain(`sandbox stopped; records saved to ${store}`);
    expect(JSON.parse(readFileSync(store, 'utf8')).records['sales-profile']).toHaveLength(1);
  });

  test("--answers documented answers as the real API's documentation shows, and logs what it really accepted", async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--answers', 'documented', '--api-key', 'doc-key'], {
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const match = /^sandbox listening on (http:\/\/\S+)$/.exec(line);
          if (match) resolve(match[1]!);
        });
        child.on('close', () => reject(new Error(`exited early: ${stderr}`)));
      });
      const res = await fetch(`${url}/v2/integration/account`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'doc-key' },
        body: JSON.stringify({
          batchId: 'doc-1',
          source: 'e2e',
          items: [
            { externalId: 'A', name: 'A', type: 'COMPANY' },
            { externalId: 'B', name: 7, type: 'COMPANY' },
          ],
        }),
      });
      expect(await res.json()).toEqual({
        data: { code: 201, success: 100, error: [{ message: 'VALIDATION_ERROR', detail: 'name: expected string, received number' }] },
        status: 'SUCCESS',
      });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toContain('#1 POST account batchId=doc-1: 2 items, 1 accepted, 1 error (data.code 201)');
  });

  test('an unknown --answers style exits 2 naming the choices', async () => {
    const r = await runCli(['sandbox', '--answers', 'loud']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--answers <style>' argument 'loud' is invalid. Allowed choices are documented, named/);
  });
});
