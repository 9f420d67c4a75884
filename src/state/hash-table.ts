// The hashes of one (method, resource): externalId → 64-bit hash, built to hold a million entries
// outside the JS heap. The ids sit in an IdTable (typed arrays); the hashes in one Uint32Array, two
// words per entry number (the id's slot). The Map of strings this replaces held ~100 MB of heap for
// a million ids, which the GC then marked and grew around.
import { IdTable } from '../validate/id-table.js';
import type { ItemHash } from './item-hash.js';

export class HashTable {
  private readonly ids = new IdTable();
  private words = new Uint32Array(2 * 1024);

  get size(): number {
    return this.ids.size;
  }

  /** The id's slot, or -1: lets a caller skip hashing an item whose id has no previous hash. */
  slotOf(id: string): number {
    return this.ids.indexOf(id);
  }

  matchesAt(slot: number, h: ItemHash): boolean {
    return this.words[2 * slot] === h.hi && this.words[2 * slot + 1] === h.lo;
  }

  set(id: string, h: ItemHash): void {
    const found = this.ids.claim(id);
    const slot = found >= 0 ? found : this.ids.size - 1;
    if (2 * slot + 2 > this.words.length) this.grow();
    this.words[2 * slot] = h.hi;
    this.words[2 * slot + 1] = h.lo;
  }

  /** Every id with its hash, in the order first set. */
  forEach(each: (id: string, h: ItemHash) => void): void {
    this.ids.forEach((id, slot) => each(id, { hi: this.words[2 * slot]!, lo: this.words[2 * slot + 1]! }));
  }

  private grow(): void {
    const next = new Uint32Array(this.words.length * 2);
    next.set(this.words);
    this.words = next;
  }
}
