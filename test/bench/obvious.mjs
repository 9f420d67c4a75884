// Stage (d): the obvious script someone would write first. Read the whole file, parse it all,
// build every item, then POST the batches one after the other with fetch. No streaming, no
// concurrency, no validation: this is the baseline the CLI has to beat.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { dealItem } from './deal-items.mjs';

const [file, baseUrl, batchSize = '500'] = process.argv.slice(2);
const rows = parse(readFileSync(file, 'utf8'), { columns: true, relax_column_count: true });

const items = rows.map(dealItem);

let accepted = 0;
for (let i = 0; i < items.length; i += Number(batchSize)) {
  const batch = items.slice(i, i + Number(batchSize));
  const res = await fetch(`${baseUrl}/v2/integration/deals`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': process.env.BATCH_SYNC_API_KEY },
    body: JSON.stringify({ batchId: `obvious-${i}`, source: 'obvious', items: batch }),
  });
  const answer = await res.json();
  accepted += answer.data.success;
}
console.log(JSON.stringify({ rows: rows.length, accepted }));
