// A shared-strings-heavy workbook (issue 34.8): ROWS accounts, each with three unique texts (an id,
// a name and a 120-character description: 3 × ROWS shared strings), read by `validate`,
// `push --dry-run` and `inspect`, each in its own process, its peak RSS from rss-probe.mjs.
// `node test/bench/shared-strings.mjs [--rows 1000000] [--cli path/to/bin/batch-sync.js]`
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeWorkbook } from '../../fixtures/xlsx/xlsx-writer.mjs';
import { runChild } from './children.mjs';

const here = new URL('.', import.meta.url).pathname;
const { values } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, cli: { type: 'string', default: join(here, '../../bin/batch-sync.js') } },
});
const rows = Number(values.rows);
const file = join(mkdtempSync(join(tmpdir(), 'batch-sync-bench-sst-')), 'accounts.xlsx');

function* accounts() {
  yield ['externalId', 'name', 'type', 'customFields.description'];
  const filler = 'lorem ipsum dolor sit amet '.repeat(5).slice(0, 120);
  for (let i = 0; i < rows; i++) yield [`acc-${String(i).padStart(7, '0')}`, `Cuenta ${i} S.A.`, 'COMPANY', `Descripción ${i} ${filler}`];
}
await writeWorkbook(file, [{ name: 'Accounts', rows: accounts() }]);

const runs = [
  ['validate', ['validate', `${file}:account`, '--format', 'json']],
  ['push --dry-run', ['push', '--dry-run', `${file}:account`, '--format', 'json']],
  ['inspect', ['inspect', file]],
];
for (const [name, args] of runs) {
  const r = await runChild(values.cli, args);
  console.log(`${name.padEnd(15)} exit ${r.exitCode}  ${r.wallSec.toFixed(1)} s  peak RSS ${Math.round(r.maxRssKb / 1024)} MB`);
}
