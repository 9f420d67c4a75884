// What reaches the disk before a batch leaves, read from the system calls of the built CLI (strace):
// each batch's request goes out only once its in-flight record's data (fdatasync) and its entry in
// the folder (an fsync of in-flight/ begun after the record was created) are on disk, so a run killed
// at any moment has recorded every batch it sent. The records of batches that take their places
// together share that folder fsync: one for the group, not one per batch (issue 27).
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { startCli, tempFiles } from '../helpers/cli.js';
import { sandboxPerFile } from '../helpers/sandbox.js';
import { parseTrace, straceWorks, type Syscall } from '../helpers/strace.js';
import { accountsCsv, allIds } from './faults-helpers.js';

const KEY = 'in-flight-order-key-0123456789';
let sandbox: SandboxHandle;
sandboxPerFile(KEY, (s) => {
  sandbox = s;
});

const BATCH_ID = /\\"batchId\\":\\"([^\\"]+)\\"/;

test.skipIf(!straceWorks())(
  'a batch leaves only once its record and its folder entry are on disk; the four batches that leave together share one folder fsync',
  { timeout: 60_000 },
  async () => {
    const dir = tempFiles({ 'accounts.csv': accountsCsv(100) });
    const trace = join(dir, 'trace');
    const args = ['push', '--incremental', '--concurrency', '4', '--batch-size', '10', 'accounts.csv'];
    const under = ['strace', '-f', '-y', '-qq', '-s', '160', '-o', trace, '-e', 'trace=openat,fdatasync,fsync,write,writev'];
    const { result } = startCli(args, { cwd: dir, under, env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: sandbox.url } });
    const run = await result;
    expect(run.stderr).toMatch(/OK exit=0 read=100 accepted=100 /);
    expect(
      sandbox
        .records('account')
        .map((r) => (r as { externalId: string }).externalId)
        .sort(),
    ).toEqual(allIds(100).sort());

    const folder = join(realpathSync(dir), '.batch-sync', 'in-flight');
    const calls = parseTrace(readFileSync(trace, 'utf8'));
    const inFolder = folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // `fdatasync(23</…/in-flight/NAME.batch>)`, `fsync(24</…/in-flight>)`, `openat(…) = 23</…/in-flight/NAME.batch>`
    const record = (fd: string) => new RegExp(`^\\d+<${inFolder}/([^/>]+\\.batch)>$`).exec(fd)?.[1];
    const created = new Map<string, Syscall>();
    for (const c of calls) {
      const name = c.name === 'openat' && c.args.includes('O_CREAT') ? record(c.result) : undefined;
      if (name !== undefined) created.set(name, c);
    }
    const datasyncs = calls.filter((c) => c.name === 'fdatasync' && record(c.args) !== undefined && c.result === '0');
    const folderSyncs = calls.filter((c) => c.name === 'fsync' && new RegExp(`^\\d+<${inFolder}>$`).test(c.args) && c.result === '0');
    const requests = new Map<string, Syscall>();
    for (const c of calls) {
      const id = (c.name === 'write' || c.name === 'writev') && c.args.includes('<socket:[') ? BATCH_ID.exec(c.args)?.[1] : undefined;
      if (id !== undefined && !requests.has(id)) requests.set(id, c);
    }

    expect(requests.size).toBe(10);
    expect(created.size).toBe(10);
    for (const [batchId, request] of requests) {
      const name = [...created.keys()].find((n) => n.startsWith(`${batchId}.`));
      expect(name, `the record of ${batchId}`).toBeDefined();
      const open = created.get(name!)!;
      // its data: one fdatasync, finished before the request's first byte was written
      const synced = datasyncs.filter((c) => record(c.args) === name);
      expect(synced, name).toHaveLength(1);
      expect(synced[0]!.end, name).toBeLessThan(request.start);
      // its entry in the folder: an fsync of the folder begun after the file was created, finished before the request
      expect(
        folderSyncs.some((f) => f.start > open.end && f.end < request.start),
        name,
      ).toBe(true);
    }
    // one folder fsync for the records written together: the first four batches take their places
    // at once (--concurrency 4), so at least three folder fsyncs fewer than records (it was one each)
    expect(folderSyncs.length).toBeLessThanOrEqual(created.size - 3);
  },
);
