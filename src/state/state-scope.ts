// The scope the state keeps its hashes (and in-flight batches) under: the method and the target.
import type { Method } from '../contract/resources.js';

/**
 * What a recorded acceptance is valid for. A POST acceptance says nothing about what a PATCH of
 * the same item would do, and one environment's acceptance says nothing about another's (staging
 * and production behind different base URLs): each method and target keeps its own hashes, so a
 * new target gets every row once instead of missing the ones another target already has.
 */
export function stateScope(method: Method, target: string | undefined): string {
  let where = target ?? 'no-base-url';
  try {
    const url = new URL(where);
    where = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    // not a URL (the embedded sandbox's per-run name): used as it is
  }
  return `${method}@${where}`;
}
