// The hashes of one (method, resource): externalId → 64-bit hash, built to hold a million entries
// compactly. The Map holds only small integers (slots, unboxed in V8); the hashes sit in one
// Uint32Array, two words per slot, instead of a string or a boxed number per entry.
import type { ItemHash } from './item-hash.js';

export class HashTable {
  private readonly slots = new Map<string, number>();
  private words = new Uint32Array(2 * 1024);

  get size(): number {
    return this.slots.size;
  }

  get(id: string): ItemHash | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : { hi: this.words[2 * slot]!, lo: this.words[2 * slot + 1]! };
  }

  matches(id: string, h: ItemHash): boolean {
    const slot = this.slots.get(id);
    return slot !== undefined && this.words[2 * slot] === h.hi && this.words[2 * slot + 1] === h.lo;
  }

  set(id: string, h: ItemHash): void {
    let slot = this.slots.get(id);
    if (slot === undefined) {
      slot = this.slots.size;
      if (2 * slot + 2 > this.words.length) this.grow();
      this.slots.set(id, slot);
    }
    this.words[2 * slot] = h.hi;
    this.words[2 * slot + 1] = h.lo;
  }

  *entries(): IterableIterator<[string, ItemHash]> {
    for (const [id, slot] of this.slots) yield [id, { hi: this.words[2 * slot]!, lo: this.words[2 * slot + 1]! }];
  }

  private grow(): void {
    const next = new Uint32Array(this.words.length * 2);
    next.set(this.words);
    this.words = next;
  }
}
