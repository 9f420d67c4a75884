// The HTML report's latency chart is of each second's own answers in a real push: the client hands
// the timeline its latency counts, so a second's p50/p95 are not the run's so far (which hide a slow
// minute behind an hour of fast ones).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';

const PLAN = resolve(__dirname, '../../fixtures/crm-sales-opportunities/batch-sync.config.json');

test("push --sandbox --html: the latency chart is each second's own", async () => {
  const dir = tempFiles({});
  const page = join(dir, 'run.html');
  const r = await spawnCli(['push', '--sandbox', '--config', PLAN, '--html', page]);
  expect(r.code, r.stderr).toBe(0);
  const html = readFileSync(page, 'utf8');
  expect(html).toContain('Latency of successful answers, each second’s own');
  expect(html).not.toContain('Latency of successful answers so far');
}, 60_000);
