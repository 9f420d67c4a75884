// Preloaded (`node --import`) into every measured child: on exit it writes the process's peak RSS
// and CPU times to $BENCH_PROBE_FILE, so the harness needs no /usr/bin/time.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_PROBE_FILE;
if (file) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssKb: u.maxRSS, userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000 }));
  });
}
