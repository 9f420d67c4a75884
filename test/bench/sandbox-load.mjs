// Stage (e): how many deal items per second `batch-sync sandbox` accepts. The bodies (500 items
// each) are built before the clock starts, so the client costs little more than its sockets:
// the figure is the sandbox's, not batch-sync push's. Profiles go first (deals must point at them).
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { Agent, request } from 'undici';
import { dealItem } from './deal-items.mjs';

const [profilesFile, dealsFile, baseUrl, batchSize = '500', inFlight = '4'] = process.argv.slice(2);
const headers = { 'content-type': 'application/json', 'x-api-key': process.env.BATCH_SYNC_API_KEY };
const dispatcher = new Agent({ connections: Number(inFlight), pipelining: 1 });
const envelope = (batchId, items) => JSON.stringify({ batchId, source: 'bench', items });
const post = async (path, body) => {
  const res = await request(`${baseUrl}/v2/integration/${path}`, { method: 'POST', headers, dispatcher, body });
  const answer = await res.body.json();
  return answer.data.success;
};

const profiles = parse(readFileSync(profilesFile, 'utf8'), { columns: true }).map((r) => ({
  externalId: r.externalId,
  email: r.email,
  profile: { firstName: r['profile.firstName'], lastName: r['profile.lastName'] },
}));
await post('sales-profile', envelope('load-profiles', profiles));

const rows = parse(readFileSync(dealsFile, 'utf8'), { columns: true, relax_column_count: true });
const bodies = [];
for (let i = 0; i < rows.length; i += Number(batchSize)) bodies.push(Buffer.from(envelope(`load-${i}`, rows.slice(i, i + Number(batchSize)).map(dealItem))));
rows.length = 0;

const started = process.hrtime.bigint();
let next = 0;
let accepted = 0;
const lane = async () => {
  while (next < bodies.length) {
    const i = next++;
    const n = await post('deals', bodies[i]); // not `accepted += await`: that reads accepted before the wait
    accepted += n;
  }
};
await Promise.all(Array.from({ length: Number(inFlight) }, lane));
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
await dispatcher.close();
console.log(JSON.stringify({ accepted, batches: bodies.length, seconds, itemsPerSec: Math.round(accepted / seconds) }));
