// Which resource an export holds, for `init` on several files at once, from CRM vocabulary
// (vocabulary.ts): the record type a JSON export names (`attributes.type` "Opportunity"), else the
// object in its file name (`Opportunity.csv`, `crm_lead.csv`, `closed_deals.csv`), else the evidence
// of its header — names only one kind's files carry (`Amount`, `StageName`, `CloseDate` are a
// deal's) and the share of the kind's required fields some column matches. A clear winner or
// nothing; either way the reason says what decided it, for init's message.
import { RESOURCES, type Resource } from '../../contract/resources.js';
import { targetShape } from '../target-fields.js';
import { matchColumns } from './match-columns.js';
import { squash } from './synonyms.js';
import { KIND_HEADERS, KIND_NAMES } from './vocabulary.js';

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
  /** How it was decided, or why not: shown by init. */
  reason: string;
  /** Each resource's header evidence, best first. */
  scores: KindEvidence[];
}

const byName = new Map(RESOURCES.flatMap((r) => KIND_NAMES[r].map((n) => [squash(n), r] as const)));
const byHeader = new Map(RESOURCES.flatMap((r) => KIND_HEADERS[r].map((n) => [squash(n), r] as const)));

/** The kind a file name names: its last word (or pair of words) that is a CRM object's name. */
export function kindFromFileName(path: string): { resource: Resource; word: string } | undefined {
  const stem = (path.split(/[\\/]/).pop() ?? '').replace(/\.(csv|tsv|txt|json|ndjson|jsonl|xlsx|xlsm)$/i, '');
  const words = stem
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  for (let i = words.length - 1; i >= 0; i--) {
    for (const candidate of [i > 0 ? `${words[i - 1]} ${words[i]}` : undefined, words[i]]) {
      const hit = candidate === undefined ? undefined : byName.get(squash(candidate));
      if (hit) return { resource: hit, word: candidate! };
    }
  }
  return undefined;
}

/** JSON exports name each record's type: Salesforce `attributes.type`, OData `@odata.type`. */
function kindFromRecordType(rows: readonly Record<string, string>[]): { resource: Resource; type: string } | undefined {
  const types = new Set(rows.map((r) => r['attributes.type'] ?? r['@odata.type']?.split('.').pop() ?? '').filter(Boolean));
  if (types.size !== 1) return undefined;
  const [type] = types as Set<string>;
  const resource = byName.get(squash(type!));
  return resource ? { resource, type: type! } : undefined;
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
  if (typed) return { resource: typed.resource, reason: `its records are of type "${typed.type}"`, scores };
  const named = kindFromFileName(file);
  if (named) return { resource: named.resource, reason: `from its file name ("${named.word}")`, scores };
  const [best, next] = scores;
  // at least two names of its own (or one and half its required fields), and clearly ahead of the next kind
  const clear = best && best.score >= 2 && (!next || best.score - next.score >= 1.5);
  if (clear) return { resource: best.resource, reason: `guessed from its header: ${describe(best)}`, scores };
  if (!best?.score) return { reason: "neither its name nor its header is a CRM object's", scores };
  return { reason: `best guess ${describe(best)}${next?.score ? `; then ${describe(next)}` : ''}`, scores };
}
