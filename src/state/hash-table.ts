// The hashes of one (method, resource): externalId → 64-bit item hash and 64-bit row fingerprint,
// built to hold a million entries outside the JS heap. The ids sit in an IdTable (typed arrays); the
// hashes in one Uint32Array, four words per entry number (the id's slot): the item hash, then the
// fingerprint (0, 0 when there is none). The Map of strings this replaces kept all of it in the heap,
// which the GC then marked and grew around.
import { IdTable } from '../util/id-table.js';
import { grownUint32 } from '../util/outgrown.js';
import type { ItemHash } from '../util/item-hash.js';

const WORDS = 4;

export class HashTable {
  private readonly ids = new IdTable();
  private words = new Uint32Array(WORDS * 1024);

  get size(): number {
    return this.ids.size;
  }

  /** The id's slot, or -1: lets a caller skip hashing an item whose id has no previous hash. */
  slotOf(id: string): number {
    return this.ids.indexOf(id);
  }

  hashAt(slot: number): ItemHash {
    return { hi: this.words[WORDS * slot]!, lo: this.words[WORDS * slot + 1]! };
  }

  matchesAt(slot: number, h: ItemHash): boolean {
    return this.words[WORDS * slot] === h.hi && this.words[WORDS * slot + 1] === h.lo;
  }

  /** Whether the entry at `slot` has this fingerprint (never true for an entry without one). */
  fingerprintAt(slot: number, fp: ItemHash): boolean {
    const hi = this.words[WORDS * slot + 2]!;
    const lo = this.words[WORDS * slot + 3]!;
    return (hi !== 0 || lo !== 0) && hi === fp.hi && lo === fp.lo;
  }

  /** Sets the fingerprint of an existing entry. */
  setFingerprintAt(slot: number, fp: ItemHash | undefined): void {
    this.words[WORDS * slot + 2] = fp?.hi ?? 0;
    this.words[WORDS * slot + 3] = fp?.lo ?? 0;
  }

  set(id: string, h: ItemHash, fp?: ItemHash): void {
    this.put(this.ids.claim(id), h, fp);
  }

  /** set() for an id given as ASCII bytes (IdTable.claimAscii): how the state's files are read. */
  setAscii(bytes: Uint8Array, start: number, end: number, h: ItemHash, fp?: ItemHash): void {
    this.put(this.ids.claimAscii(bytes, start, end), h, fp);
  }

  /** `found`: what claiming the id returned. */
  private put(found: number, h: ItemHash, fp?: ItemHash): void {
    const slot = found >= 0 ? found : this.ids.size - 1;
    if (WORDS * slot + WORDS > this.words.length) this.grow();
    this.words[WORDS * slot] = h.hi;
    this.words[WORDS * slot + 1] = h.lo;
    this.setFingerprintAt(slot, fp);
  }

  /** Every id with its hash and fingerprint (undefined when none), in the order first set. */
  forEach(each: (id: string, h: ItemHash, fp: ItemHash | undefined) => void): void {
    this.ids.forEach((id, slot) => {
      const w = WORDS * slot;
      const hi = this.words[w + 2]!;
      const lo = this.words[w + 3]!;
      each(id, { hi: this.words[w]!, lo: this.words[w + 1]! }, hi === 0 && lo === 0 ? undefined : { hi, lo });
    });
  }

  /** Every fingerprint, without the ids. */
  forEachFingerprint(each: (fp: ItemHash) => void): void {
    const n = this.ids.size;
    for (let slot = 0; slot < n; slot++) {
      const hi = this.words[WORDS * slot + 2]!;
      const lo = this.words[WORDS * slot + 3]!;
      if (hi !== 0 || lo !== 0) each({ hi, lo });
    }
  }

  private grow(): void {
    // 1.5×, as the IdTable grows: a doubling would leave up to half of a large table unused
    this.words = grownUint32(this.words, WORDS * Math.ceil((this.words.length / WORDS) * 1.5));
  }
}
