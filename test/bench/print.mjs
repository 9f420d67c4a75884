// The human table of a bench run; the JSON file carries the same figures.

const mb = (kb) => (kb ? `${Math.round(kb / 1024)} MB` : '');

export function printTable(results) {
  const { stages, ratios, machine, rows } = results;
  console.log(`\nbatch-sync bench: ${rows} rows, ${machine.nproc} cores, node ${machine.node}, ${machine.cpu}\n`);
  console.log(['stage', 'wall', 'rows/s', 'peak RSS', 'exit'].join('\t'));
  for (const [key, s] of Object.entries(stages)) {
    if (s.skipped) {
      console.log(`${key} ${s.label ?? ''}\tskipped: ${s.skipped}`);
      continue;
    }
    console.log([`${key} ${s.label}`, `${s.wallSec.toFixed(2)} s`, s.rowsPerSec.toLocaleString('en'), mb(s.maxRssKb), s.exitCode].join('\t'));
    if (s.deals)
      console.log(
        `  deals: ${s.deals.accepted} accepted, ${s.deals.invalid} invalid, ${s.deals.skipped} skipped${s.sinkItems !== undefined ? `; the sink received ${s.sinkItems} items` : ''}`,
      );
    else if (s.sinkItems !== undefined) console.log(`  the sink received ${s.sinkItems} items`);
    if (s.sandboxItemsPerSec) {
      const runs = s.itemsPerSecOfRuns?.length > 1 ? ` (runs: ${s.itemsPerSecOfRuns.map((n) => n.toLocaleString('en')).join(', ')})` : '';
      console.log(
        `  sandbox: ${s.sandboxItemsPerSec.toLocaleString('en')} deal items/s end to end${runs}, ${s.sandboxItemsPerCpuSec.toLocaleString('en')} items per sandbox CPU-second, sandbox peak ${mb(s.sandboxPeakRssKb)}`,
      );
    }
  }
  console.log('');
  for (const [k, v] of Object.entries(ratios)) console.log(`${k}: ${v ?? 'n/a'}`);
}
