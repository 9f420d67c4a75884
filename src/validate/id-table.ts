// The externalIds a run has seen, with where each was first seen: an exact set kept in typed
// arrays (the ids' UTF-16 code units in one arena, so equality is exact for any JS string, and an
// open-addressing index over them) instead of a Map of strings. A Map held ~75 MB of JS heap for a
// million ids and grew with the file, which the garbage collector then multiplied; this keeps its
// data outside the heap and costs no GC time. An id whose code units all fit a byte (most ids) is
// kept as Latin-1, one byte per unit: 1M state ids of 11 characters, arena 32 -> 16 MB (measured).

const EMPTY = 0;

/**
 * FNV-1a over UTF-16 code units: cheap, and only used to pick a slot (equality is exact). Its lowest
 * bit says how the id is stored (1: UTF-16, 0: Latin-1), so equal hashes mean the same encoding and
 * comparing bytes stays exact.
 */
function hashOf(id: string): number {
  let h = 0x811c9dc5;
  let units = 0;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    units |= c;
    h ^= c;
    h = Math.imul(h, 0x01000193);
  }
  return ((h & ~1) | (units > 0xff ? 1 : 0)) >>> 0;
}

const encodingOf = (hash: number): 'utf16le' | 'latin1' => ((hash & 1) === 1 ? 'utf16le' : 'latin1');
const bytesOf = (id: string, hash: number) => ((hash & 1) === 1 ? 2 * id.length : id.length);

export class IdTable {
  private arena = Buffer.allocUnsafe(1 << 16);
  private arenaUsed = 0;
  /** Per entry: where its bytes start and end in the arena, its hash, and a caller's number. */
  private starts = new Uint32Array(1024);
  private ends = new Uint32Array(1024);
  private hashes = new Uint32Array(1024);
  private values = new Float64Array(1024);
  private count = 0;
  /** Open addressing: entry index + 1, or EMPTY. Kept at most half full. */
  private slots = new Uint32Array(2048);
  private scratch = Buffer.allocUnsafe(256);

  get size(): number {
    return this.count;
  }

  /** The number stored with `id`, or undefined when the id was never added. */
  get(id: string): number | undefined {
    const slot = this.find(id, hashOf(id));
    const entry = this.slots[slot]!;
    return entry === EMPTY ? undefined : this.values[entry - 1];
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Adds `id` with `value` unless present; returns the value stored first (undefined when new). */
  claim(id: string, value: number): number | undefined {
    const hash = hashOf(id);
    const slot = this.find(id, hash);
    const entry = this.slots[slot]!;
    if (entry !== EMPTY) return this.values[entry - 1];
    this.insert(id, hash, value, slot);
    return undefined;
  }

  /** Every id with its value, in the order added (the state store writes its snapshot from this). */
  forEach(each: (id: string, value: number) => void): void {
    for (let e = 0; e < this.count; e++) each(this.arena.toString(encodingOf(this.hashes[e]!), this.starts[e], this.ends[e]), this.values[e]!);
  }

  private find(id: string, hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    let bytes = -1;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY) return slot;
      if (this.hashes[entry - 1] === hash) {
        if (bytes < 0) bytes = this.encode(id, hash);
        const start = this.starts[entry - 1]!;
        const end = this.ends[entry - 1]!;
        if (end - start === bytes && this.arena.compare(this.scratch, 0, bytes, start, end) === 0) return slot;
      }
      slot = (slot + 1) & mask;
    }
  }

  private encode(id: string, hash: number): number {
    const need = bytesOf(id, hash);
    if (need > this.scratch.length) this.scratch = Buffer.allocUnsafe(need * 2);
    return this.scratch.write(id, 0, encodingOf(hash));
  }

  private insert(id: string, hash: number, value: number, slot: number): void {
    const need = bytesOf(id, hash);
    if (this.arenaUsed + need > this.arena.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.arena.length * 2, this.arenaUsed + need));
      this.arena.copy(grown, 0, 0, this.arenaUsed);
      this.arena = grown;
    }
    if (this.count === this.starts.length) this.growEntries();
    const start = this.arenaUsed;
    this.arenaUsed += this.arena.write(id, start, encodingOf(hash));
    this.starts[this.count] = start;
    this.ends[this.count] = this.arenaUsed;
    this.hashes[this.count] = hash;
    this.values[this.count] = value;
    this.count += 1;
    this.slots[slot] = this.count;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  private growEntries(): void {
    const size = this.starts.length * 2;
    const grow = <T extends Uint32Array | Float64Array>(old: T, make: (n: number) => T) => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.starts = grow(this.starts, (n) => new Uint32Array(n));
    this.ends = grow(this.ends, (n) => new Uint32Array(n));
    this.hashes = grow(this.hashes, (n) => new Uint32Array(n));
    this.values = grow(this.values, (n) => new Float64Array(n));
  }

  private rehash(): void {
    const slots = new Uint32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.count; e++) {
      let slot = this.hashes[e]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = e + 1;
    }
    this.slots = slots;
  }
}
