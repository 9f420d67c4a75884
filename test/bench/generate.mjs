// Deterministic bench input: a canonical deals CSV (no profile needed) and the sales profiles its
// owners and agents point at. Same seed, same bytes: figures from two runs compare like for like.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const DEALS_HEADER = [
  'externalId', 'title', 'ownerExternalId', 'agentExternalId', 'isWon', 'amount.value', 'amount.currency',
  'currentStage.pipelineName', 'currentStage.value', 'currentStage.occurredAt', 'closeDate',
  'customFields.accountExternalId[Account]', 'customFields.probability[Probability %]:number',
].join(',');
const PROFILES_HEADER = 'externalId,email,profile.firstName,profile.lastName,customFields.region';

const FIRST = ['Ana', 'Bruno', 'Camila', 'Díaz', 'Émile', 'João', 'Zoë', 'Łukasz', 'Søren', 'Mía', 'Jürgen', 'Çağla', 'Renée', 'Nuño', 'Åsa', 'Chloé'];
const LAST = ['Souza', 'Díaz', 'Rojas', 'Müller', 'Gonçalves', 'Østergaard', 'Núñez', 'Brontë', 'Škoda', 'Peña', 'Łęcka', 'Öztürk'];
const REGIONS = ['Sul', 'Cono Sur', 'Andes', 'Norte', 'Centro-Oeste'];
const PRODUCTS = ['Licencias anuales', 'Renovación soporte', 'Implantação', 'Consultoría', 'Formação equipe', 'Migración nube', 'Hardware rack'];
const STAGES = ['Prospección', 'Propuesta', 'Negociación', 'Ganado', 'Perdido'];
const CURRENCIES = ['USD', 'BRL', 'CLP', 'MXN', 'EUR'];
export const PROFILES = 200;

/** mulberry32: tiny, fast, and the same sequence everywhere. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const slug = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').replace(/[łŁ]/g, 'l').replace(/[øØ]/g, 'o').toLowerCase().replace(/[^a-z0-9]+/g, '-');

export function profileId(i) {
  return `${slug(FIRST[i % FIRST.length])}-${slug(LAST[Math.floor(i / FIRST.length) % LAST.length])}-${i}`;
}

function writeLines(path, header, count, line) {
  const fd = openSync(path, 'w');
  let buf = `${header}\n`;
  for (let i = 0; i < count; i++) {
    buf += line(i) + '\n';
    if (buf.length > 1 << 20) {
      writeSync(fd, buf);
      buf = '';
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
}

export function writeProfiles(path) {
  writeLines(path, PROFILES_HEADER, PROFILES, (i) => {
    const id = profileId(i);
    return `${id},${id}@bench.example.com,${FIRST[i % FIRST.length]},${LAST[Math.floor(i / FIRST.length) % LAST.length]},${REGIONS[i % REGIONS.length]}`;
  });
}

/**
 * One deal row. `version` > 0 changes the amount of the row (the incremental bench's "1% changed").
 * ~5.5% of titles are quoted (a comma, sometimes doubled quotes), ~0.2% of rows are invalid.
 */
export function dealRow(i, version = 0) {
  const r = prng(i * 7919 + 17);
  const product = PRODUCTS[Math.floor(r() * PRODUCTS.length)];
  const q = r();
  let title = `${product} ${2020 + (i % 6)} – lote ${i % 997}`;
  if (q < 0.04) title = `"${product}, ${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}"`;
  else if (q < 0.055) title = `"${product} ""premium"", fase ${i % 9}"`;
  const owner = profileId(Math.floor(r() * PROFILES));
  const agent = r() < 0.7 ? owner : profileId(Math.floor(r() * PROFILES));
  const stage = STAGES[Math.floor(r() * STAGES.length)];
  const won = stage === 'Ganado';
  let amount = `${Math.floor(r() * 500000)}.${String(Math.floor(r() * 100)).padStart(2, '0')}`;
  if (version > 0) amount = (Number.parseFloat(amount) + version).toFixed(2);
  let currency = CURRENCIES[Math.floor(r() * CURRENCIES.length)];
  const month = String(1 + Math.floor(r() * 12)).padStart(2, '0');
  let day = String(1 + Math.floor(r() * 28)).padStart(2, '0');
  const bad = r();
  if (bad < 0.0007) currency = 'US$'; // not ISO-4217: zod refine
  else if (bad < 0.0014) amount = amount.replace('.', ','); // a decimal comma: zod regex
  else if (bad < 0.002) day = '31'; // month 02..12 with day 31 is often no date at all
  const date = `2024-${bad < 0.002 && bad >= 0.0014 ? '02' : month}-${day}`;
  return `D-${String(i).padStart(8, '0')},${title},${owner},${agent},${won},${amount},${currency},Ventas,${stage},${date}T10:30:00Z,${date},acc-${i % 5003},${Math.floor(r() * 101)}`;
}

/** Writes `dir/sales-profiles.csv` and `dir/deals.csv`; `changedEvery` > 0 changes one row in that many. */
export function generate(dir, rows, changedEvery = 0) {
  mkdirSync(dir, { recursive: true });
  writeProfiles(join(dir, 'sales-profiles.csv'));
  writeLines(join(dir, 'deals.csv'), DEALS_HEADER, rows, (i) => dealRow(i, changedEvery > 0 && i % changedEvery === 7 ? 1 : 0));
  return { profiles: join(dir, 'sales-profiles.csv'), deals: join(dir, 'deals.csv') };
}

// `node test/bench/generate.mjs <dir> <rows>`: the same files for tests that spawn the CLI
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [dir, rows] = process.argv.slice(2);
  generate(dir, Number(rows));
}
