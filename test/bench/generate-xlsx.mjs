// The bench deals as a workbook (stage x): the rows of deals.csv with the cells a spreadsheet would
// type: amounts and probabilities as numbers, won as a boolean, the close date as a date cell,
// everything else text. Written by fixtures/xlsx/xlsx-writer.mjs, the sheet before its shared strings.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeWorkbook } from '../../fixtures/xlsx/xlsx-writer.mjs';
import { DEALS_HEADER, dealRow, writeProfiles } from './generate.mjs';

function* rows(count) {
  const header = DEALS_HEADER.split(',');
  yield header;
  const amount = header.indexOf('amount.value');
  const won = header.indexOf('isWon');
  const close = header.indexOf('closeDate');
  const probability = header.length - 1;
  for (let i = 0; i < count; i++) {
    const cells = splitRow(dealRow(i));
    // the CSV's ragged rows (a decimal comma splits the amount): one text cell in a workbook
    if (cells.length > header.length) cells.splice(amount, 2, `${cells[amount]},${cells[amount + 1]}`);
    const typed = cells.map((c) => c);
    // a decimal comma (the CSV's ragged row) stays text, as a spreadsheet would keep it
    if (/^\d+\.\d+$/.test(cells[amount])) typed[amount] = { n: cells[amount] };
    typed[won] = cells[won] === 'true';
    if (/^\d{4}-\d{2}-\d{2}$/.test(cells[close]) && !Number.isNaN(Date.parse(cells[close]))) typed[close] = { date: cells[close] };
    typed[probability] = Number(cells[probability]);
    yield typed;
  }
}

/** A CSV line of the bench (quotes only around titles) → its cells. */
function splitRow(line) {
  const cells = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let text = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        text += line.slice(i, q);
        if (line[q + 1] === '"') {
          text += '"';
          i = q + 2;
        } else {
          i = q + 2;
          break;
        }
      }
      cells.push(text);
    } else {
      const end = line.indexOf(',', i);
      const stop = end < 0 ? line.length : end;
      cells.push(line.slice(i, stop));
      i = stop + 1;
    }
  }
  return cells;
}

/** Writes `dir/sales-profiles.csv` and `dir/deals.xlsx` (sheet "Deals"). */
export async function generateXlsx(dir, count) {
  mkdirSync(dir, { recursive: true });
  writeProfiles(join(dir, 'sales-profiles.csv'));
  await writeWorkbook(join(dir, 'deals.xlsx'), [{ name: 'Deals', rows: rows(count) }]);
  return { profiles: join(dir, 'sales-profiles.csv'), deals: join(dir, 'deals.xlsx') };
}

/**
 * Writes `dir/<name>.xlsx`: `count` accounts (canonical columns, sheet "Accounts"), each of `type`:
 * `COMPANY` gives clean rows, a type the spec never showed (`PARTNER`) a warning on every row.
 */
export async function generateAccountsXlsx(dir, count, type, name = 'accounts') {
  mkdirSync(dir, { recursive: true });
  function* accounts() {
    yield ['externalId', 'name', 'type', 'customFields.employees[Employees]:number'];
    for (let i = 0; i < count; i++) yield [`acc-${String(i).padStart(7, '0')}`, `Cuenta ${i} S.A.`, type, i % 5000];
  }
  const file = join(dir, `${name}.xlsx`);
  await writeWorkbook(file, [{ name: 'Accounts', rows: accounts() }]);
  return file;
}

// `node test/bench/generate-xlsx.mjs <dir> <rows>`
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [dir, count] = process.argv.slice(2);
  await generateXlsx(dir, Number(count));
}
