// Deterministic bench input: a canonical deals CSV (no profile needed) and the sales profiles its
// owners and agents point at. Same seed, same bytes: figures from two runs compare like for like.
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const DEALS_HEADER = [
  'externalId',
  'title',
  'ownerExternalId',
  'agentExternalId',
  'isWon',
  'amount.value',
  'amount.currency',
  'currentStage.pipelineName',
  'currentStage.value',
  'currentStage.occurredAt',
  'closeDate',
  'customFields.accountExternalId[Account]',
  'customFields.probability[Probability %]:number',
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
const slug = (s) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[łŁ]/g, 'l')
    .replace(/[øØ]/g, 'o')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');

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
 * One deal's values. `version` > 0 changes the amount of the row (the incremental bench's "1%
 * changed"). ~5.5% of titles have a comma, some doubled quotes too; ~0.2% of rows are invalid.
 */
function dealValues(i, version = 0) {
  const r = prng(i * 7919 + 17);
  const product = PRODUCTS[Math.floor(r() * PRODUCTS.length)];
  const q = r();
  let title = `${product} ${2020 + (i % 6)} – lote ${i % 997}`;
  if (q < 0.04) title = `${product}, ${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]}`;
  else if (q < 0.055) title = `${product} "premium", fase ${i % 9}`;
  const ownerIndex = Math.floor(r() * PROFILES);
  const agentIndex = r() < 0.7 ? ownerIndex : Math.floor(r() * PROFILES);
  const stage = STAGES[Math.floor(r() * STAGES.length)];
  let amount = `${Math.floor(r() * 500000)}.${String(Math.floor(r() * 100)).padStart(2, '0')}`;
  if (version > 0) amount = (Number.parseFloat(amount) + version).toFixed(2);
  let currency = CURRENCIES[Math.floor(r() * CURRENCIES.length)];
  const month = String(1 + Math.floor(r() * 12)).padStart(2, '0');
  let day = String(1 + Math.floor(r() * 28)).padStart(2, '0');
  const bad = r();
  let commaAmount = false;
  if (bad < 0.0007)
    currency = 'US$'; // not ISO-4217: zod refine
  else if (bad < 0.0014)
    commaAmount = true; // a decimal comma in a canonical file: a ragged row
  else if (bad < 0.002) day = '31'; // month 02..12 with day 31 is often no date at all
  // the impossible dates are in February
  const dateMonth = bad < 0.002 && bad >= 0.0014 ? '02' : month;
  return {
    id: `D-${String(i).padStart(8, '0')}`,
    title,
    ownerIndex,
    agentIndex,
    stage,
    won: stage === 'Ganado',
    amount,
    commaAmount,
    currency,
    year: '2024',
    month: dateMonth,
    day,
    account: `acc-${i % 5003}`,
    probability: Math.floor(r() * 101),
  };
}

const csvQuote = (s, delimiter) => (s.includes(delimiter) || s.includes('"') ? `"${s.replaceAll('"', '""')}"` : s);

/** One canonical deal row (`deals.csv`). */
export function dealRow(i, version = 0) {
  const d = dealValues(i, version);
  const date = `${d.year}-${d.month}-${d.day}`;
  const amount = d.commaAmount ? d.amount.replace('.', ',') : d.amount;
  return `${d.id},${csvQuote(d.title, ',')},${profileId(d.ownerIndex)},${profileId(d.agentIndex)},${d.won},${amount},${d.currency},Ventas,${d.stage},${date}T10:30:00Z,${date},${d.account},${d.probability}`;
}

/**
 * The same deals as a Spanish Excel export ("CSV UTF-8": a BOM, semicolons, decimal commas,
 * DD/MM/YYYY, Spanish headers, people by name), for the push through a profile (SPANISH_PROFILE).
 */
export const SPANISH_HEADER = 'Código;Oportunidad;Vendedor;Agente;Etapa;Monto;Moneda;Fecha de cierre;Cuenta;Probabilidad';
const personName = (i) => `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`;
export function spanishRow(i) {
  const d = dealValues(i);
  return [
    d.id,
    csvQuote(d.title, ';'),
    personName(d.ownerIndex),
    personName(d.agentIndex),
    d.stage,
    d.amount.replace('.', ','),
    d.currency.toLowerCase(),
    `${d.day}/${d.month}/${d.year}`,
    d.account,
    d.probability,
  ].join(';');
}
export const SPANISH_PROFILE = {
  description: 'The bench deals as a Spanish Excel export.',
  resource: 'deal',
  reader: { delimiter: ';' },
  timeZone: 'America/Santiago',
  decimal: ',',
  dateFormat: 'DD/MM/YYYY',
  fields: {
    externalId: 'Código',
    title: 'Oportunidad',
    ownerExternalId: { column: 'Vendedor', transform: 'slug' },
    agentExternalId: { column: 'Agente', transform: 'slug' },
    isWon: { column: 'Etapa', map: { Ganado: true }, otherwise: false },
    'amount.value': 'Monto',
    'amount.currency': { column: 'Moneda', transform: 'upper' },
    'currentStage.pipelineName': { const: 'Ventas' },
    'currentStage.value': 'Etapa',
    'currentStage.occurredAt': 'Fecha de cierre',
    closeDate: 'Fecha de cierre',
  },
  customFields: [
    { key: 'accountExternalId', name: 'Cuenta', type: 'string', column: 'Cuenta' },
    { key: 'probability', name: 'Probabilidad %', type: 'number', column: 'Probabilidad' },
  ],
};

/** Writes `dir/sales-profiles.csv` and `dir/deals.csv`; `changedEvery` > 0 changes one row in that many. */
export function generate(dir, rows, changedEvery = 0) {
  mkdirSync(dir, { recursive: true });
  writeProfiles(join(dir, 'sales-profiles.csv'));
  writeLines(join(dir, 'deals.csv'), DEALS_HEADER, rows, (i) => dealRow(i, changedEvery > 0 && i % changedEvery === 7 ? 1 : 0));
  return { profiles: join(dir, 'sales-profiles.csv'), deals: join(dir, 'deals.csv') };
}

/** Writes `dir/oportunidades.csv` and the profile that maps it, `dir/oportunidades.profile.json`. */
export function generateSpanish(dir, rows) {
  mkdirSync(dir, { recursive: true });
  writeLines(join(dir, 'oportunidades.csv'), `\ufeff${SPANISH_HEADER}`, rows, spanishRow);
  writeFileSync(join(dir, 'oportunidades.profile.json'), JSON.stringify(SPANISH_PROFILE, null, 2));
  return { deals: join(dir, 'oportunidades.csv'), profile: join(dir, 'oportunidades.profile.json') };
}

// `node test/bench/generate.mjs <dir> <rows>`: the same files for tests that spawn the CLI
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [dir, rows] = process.argv.slice(2);
  generate(dir, Number(rows));
}
