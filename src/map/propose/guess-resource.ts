// Which resource an export holds, from its header, for `init` on several files at once: the share
// of the resource's required fields that some column matches by name. A clear winner or nothing.
import { RESOURCES, type Resource } from '../../contract/resources.js';
import { targetShape } from '../target-fields.js';
import { matchColumns } from './match-columns.js';

export interface ResourceGuess {
  resource?: Resource;
  /** Each resource's share of required fields matched, best first (for the message when unsure). */
  scores: { resource: Resource; score: number }[];
}

export function guessResource(header: readonly string[]): ResourceGuess {
  const scores = RESOURCES.map((resource) => {
    const shape = targetShape(resource, 'post');
    const required = [...shape.fields.values()].filter((f) => f.required && f.group === '').map((f) => f.path);
    const { byField } = matchColumns(resource, header, new Set(shape.fields.keys()));
    const hits = required.filter((p) => byField.has(p)).length;
    return { resource, score: required.length ? hits / required.length : 0 };
  }).sort((a, b) => b.score - a.score);
  const [best, next] = scores;
  // at least half its required fields, and clearly ahead of the next one
  const clear = best && best.score >= 0.5 && (!next || best.score - next.score >= 0.25);
  return { resource: clear ? best.resource : undefined, scores };
}
