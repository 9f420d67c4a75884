// Which resource an export holds, for `init` on several files at once, from CRM vocabulary
// (vocabulary.ts): the record type a JSON export names (`attributes.type` "Opportunity"), else the
// object in its file name (`Opportunity.csv`, `crm_lead.csv`, `closed_deals.csv`), else the evidence
// of its header — names only one kind's files carry (`Amount`, `StageName`, `CloseDate` are a
// deal's) and the share of the kind's required fields some column matches. A clear winner or
// nothing; either way the reason says what decided it, for init's message. Customer records
// (contacts, people, leads) are told apart: by their name, or by a header of a person with no
// seller's header (a login, a role, a manager): names, e-mails and job titles are on every contact.
import { RESOURCES, type Resource } from '../../contract/resources.js';
import { targetShape } from '../target-fields.js';
import { matchColumns } from './match-columns.js';
import { isPhoneHeader, SYNONYMS, squash } from './synonyms.js';
import { CUSTOMER_NAMES, KIND_HEADERS, KIND_NAMES, SELLER_HEADERS } from './vocabulary.js';

/** What a file holds: one of the API's kinds, or customer records, which it has no kind for. */
type RecordKind = Resource | 'customer';

interface KindEvidence {
  resource: Resource;
  /** Header columns only that kind's files carry. */
  headers: string[];
  /** Share of the kind's required fields some column matches by name. */
  required: number;
  score: number;
}

export interface ResourceGuess {
  resource?: Resource;
  /** Customer records (no resource): what init says of them, `customer contacts (Nome, Telefone, E-mail)`. */
  customers?: string;
  /** How it was decided, or why not: shown by init. */
  reason: string;
  /** Each resource's header evidence, best first. */
  scores: KindEvidence[];
}

const byName = new Map<string, RecordKind>([
  ...RESOURCES.flatMap((r) => KIND_NAMES[r].map((n) => [squash(n), r] as const)),
  ...CUSTOMER_NAMES.map((n) => [squash(n), 'customer'] as const),
]);
const byHeader = new Map(RESOURCES.flatMap((r) => KIND_HEADERS[r].map((n) => [squash(n), r] as const)));
const sellerHeaders = new Set(SELLER_HEADERS.map(squash));
const personHeaders = new Set(
  [
    ...(['email', 'profile.firstName', 'profile.lastName'] as const).flatMap((f) => SYNONYMS['sales-profile'][f] ?? []),
    'name',
    'full name',
    'job title',
    'jobtitle',
    'title',
    'cargo',
    'puesto',
  ].map(squash),
);

/** The kind a file name names: its last word (or pair of words) that is a CRM object's name. */
export function kindFromFileName(path: string): { resource: Resource; word: string } | undefined {
  const named = nameWord(path);
  return named && named.kind !== 'customer' ? { resource: named.kind, word: named.word } : undefined;
}

function nameWord(path: string): { kind: RecordKind; word: string } | undefined {
  const stem = (path.split(/[\\/]/).pop() ?? '').replace(/\.(csv|tsv|txt|json|ndjson|jsonl|xlsx|xlsm)$/i, '');
  const words = stem
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  for (let i = words.length - 1; i >= 0; i--) {
    for (const candidate of [i > 0 ? `${words[i - 1]} ${words[i]}` : undefined, words[i]]) {
      const hit = candidate === undefined ? undefined : byName.get(squash(candidate));
      // `deal_products`, `pipeline_stages`: the kind qualifies the thing the file holds
      if (hit) return words.slice(i + 1).some((w) => PARTS.has(squash(w))) ? undefined : { kind: hit, word: candidate! };
    }
  }
  return undefined;
}

/** What a record has many of, named after the kind's word in a file's name (`deal_products.csv`): not records of the kind. */
const PARTS = new Set(
  (
    'product|products|item|items|line|lines|lineitem|lineitems|stage|stages|history|histories|payment|payments|field|fields|' +
    'tag|tags|category|categories|attachment|attachments|file|files|log|logs|producto|productos|produto|produtos|etapa|etapas|' +
    'historial|historico|histórico|pago|pagos|pagamento|pagamentos|campo|campos|linea|lineas|línea|líneas|linha|linhas|itens'
  )
    .split('|')
    .map(squash),
);

/** JSON exports name each record's type: Salesforce `attributes.type`, OData `@odata.type`. */
function kindFromRecordType(rows: readonly Record<string, string>[]): { kind: RecordKind; type: string } | undefined {
  const types = new Set(rows.map((r) => r['attributes.type'] ?? r['@odata.type']?.split('.').pop() ?? '').filter(Boolean));
  if (types.size !== 1) return undefined;
  const [type] = types as Set<string>;
  const kind = byName.get(squash(type!));
  return kind ? { kind, type: type! } : undefined;
}

/** `Pessoa - Nome` → `Nome`: Pipedrive names each column after its object. */
const withoutPrefix = (h: string) => h.replace(/^[^-]*\S\s+-\s+/, '');

/** Pipedrive's `Negócio - Título`, `Pessoa - Nome`: the object most columns are named after (linked objects' columns are fewer). */
function kindFromPrefix(header: readonly string[]): { kind: RecordKind; word: string } | undefined {
  const counts = new Map<string, number>();
  for (const h of header) {
    const word = /^(.*\S)\s+-\s+\S/.exec(h)?.[1];
    if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const [word, n] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  const kind = word === undefined ? undefined : byName.get(squash(word));
  return kind && n! * 2 > header.length ? { kind, word: word! } : undefined;
}

/** `customer contacts (Nome, Telefone, E-mail)`: a person's columns, as init names them. */
function customersLine(header: readonly string[]): string {
  const person = header.filter((h) => personHeaders.has(squash(withoutPrefix(h))) || isPhoneHeader(h) || /phone|fone|e-?mail/i.test(h));
  return `customer contacts (${(person.length ? person : header).slice(0, 3).join(', ')})`;
}

function evidence(header: readonly string[]): KindEvidence[] {
  return RESOURCES.map((resource) => {
    const shape = targetShape(resource, 'post');
    const required = [...shape.fields.values()].filter((f) => f.required && f.group === '').map((f) => f.path);
    const { byField } = matchColumns(resource, header, new Set(shape.fields.keys()));
    const share = required.length ? required.filter((p) => byField.has(p)).length / required.length : 0;
    const headers = header.filter((h) => byHeader.get(squash(h)) === resource);
    return { resource, headers, required: share, score: headers.length + 2 * share };
  }).sort((a, b) => b.score - a.score);
}

const describe = (e: KindEvidence) =>
  `${e.resource}: ${e.headers.length ? e.headers.slice(0, 4).join(', ') + (e.headers.length > 4 ? ', …' : '') : 'no header name of its own'}, ${Math.round(e.required * 100)}% of its required fields`;

export function guessResource(header: readonly string[], file = '', rows: readonly Record<string, string>[] = []): ResourceGuess {
  const scores = evidence(header);
  const typed = kindFromRecordType(rows);
  if (typed?.kind === 'customer') return { customers: customersLine(header), reason: `its records are of type "${typed.type}"`, scores };
  if (typed) return { resource: typed.kind, reason: `its records are of type "${typed.type}"`, scores };
  const named = nameWord(file);
  if (named?.kind === 'customer') return { customers: customersLine(header), reason: `from its file name ("${named.word}")`, scores };
  if (named) return { resource: named.kind, reason: `from its file name ("${named.word}")`, scores };
  const prefix = kindFromPrefix(header);
  if (prefix?.kind === 'customer') return { customers: customersLine(header), reason: `its columns are named "${prefix.word} - …"`, scores };
  if (prefix) return { resource: prefix.kind, reason: `its columns are named "${prefix.word} - …"`, scores };
  const [best, next] = scores;
  // a person's header (names, e-mail, job title) without a seller's (a login, a role, a manager) is a contact's
  if (best?.resource === 'sales-profile' && best.score >= 2 && !header.some((h) => sellerHeaders.has(squash(h)))) {
    return {
      customers: customersLine(header),
      reason: `its header is a person's, with nothing of a seller's (a login, a role, a manager): ${describe(best)}`,
      scores,
    };
  }
  // at least two names of its own (or one and half its required fields), and clearly ahead of the next kind
  const clear = best && best.score >= 2 && (!next || best.score - next.score >= 1.5);
  if (clear) return { resource: best.resource, reason: `guessed from its header: ${describe(best)}`, scores };
  if (!best?.score) return { reason: "neither its name nor its header is a CRM object's", scores };
  return { reason: `best guess ${describe(best)}${next?.score ? `; then ${describe(next)}` : ''}`, scores };
}
