// The externalIds a run has seen, each with its entry number (the order it was first added): an
// exact set kept in typed arrays (the ids' UTF-16 code units in one arena, so equality is exact for
// any JS string, and an open-addressing index over them) instead of a Map of strings. A Map's heap
// grew with the file, and the garbage collector marked and grew around all of it; this keeps its
// data outside the heap and costs no GC time. An id whose code units all fit a byte (most ids) is
// kept as Latin-1, one byte per unit, which halves the arena for such ids.

import { grownBuffer, grownUint32, release } from './outgrown.js';

const EMPTY = 0;
/** Ids up to this many units are compared in JS, longer ones as buffers. */
const SHORT = 64;

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

/** An IdTable's parts in SharedArrayBuffers: another thread reads the same memory (IdTable.fromShared). */
export interface SharedIdTable {
  arena: SharedArrayBuffer;
  starts: SharedArrayBuffer;
  hashes: SharedArrayBuffer;
  slots: SharedArrayBuffer;
}

/** A copy of `view` in a SharedArrayBuffer. */
function shared(view: Uint8Array): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(view.byteLength);
  new Uint8Array(buffer).set(view);
  return buffer;
}

export class IdTable {
  private arena: Buffer<ArrayBufferLike> = Buffer.allocUnsafe(1 << 16);
  private arenaUsed = 0;
  /**
   * Per entry: where its bytes start in the arena (they end where the next entry's start: the
   * arena is only appended to) and its hash. 8 bytes an entry; callers keep what they attach to an
   * id in their own arrays, by entry number.
   */
  private starts: Uint32Array<ArrayBufferLike> = new Uint32Array(1024);
  private hashes: Uint32Array<ArrayBufferLike> = new Uint32Array(1024);
  private count = 0;
  /** Open addressing: entry number + 1, or EMPTY. Kept at most half full. */
  private slots: Uint32Array<ArrayBufferLike> = new Uint32Array(2048);
  private scratch = Buffer.allocUnsafe(256);

  get size(): number {
    return this.count;
  }

  /** The id's entry number, or -1 when it was never added. */
  indexOf(id: string): number {
    return this.slots[this.find(id, hashOf(id))]! - 1;
  }

  has(id: string): boolean {
    return this.indexOf(id) >= 0;
  }

  /** Adds `id` unless present: returns the entry number it already had, or -1 when it is new (its number is then `size - 1`). */
  claim(id: string): number {
    const hash = hashOf(id);
    const slot = this.find(id, hash);
    const entry = this.slots[slot]!;
    if (entry !== EMPTY) return entry - 1;
    this.insert(id, hash, slot);
    return -1;
  }

  /**
   * claim() for an id given as ASCII bytes, `bytes[start..end)` (every byte below 0x80): the state's
   * snapshot adds its ids so without decoding a string for each. The same entry as claim() of the id.
   */
  claimAscii(bytes: Uint8Array, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) {
      h ^= bytes[i]!;
      h = Math.imul(h, 0x01000193);
    }
    const hash = (h & ~1) >>> 0; // Latin-1 (hashOf)
    const mask = this.slots.length - 1;
    const length = end - start;
    let slot = hash & mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY) break;
      if (this.hashes[entry - 1] === hash) {
        const at = this.starts[entry - 1]!;
        if (this.end(entry - 1) - at === length && this.sameBytes(bytes, start, length, at)) return entry - 1;
      }
      slot = (slot + 1) & mask;
    }
    if (this.arenaUsed + length > this.arena.length) this.growArena(length);
    const arena = this.arena;
    const to = this.arenaUsed - start;
    for (let i = start; i < end; i++) arena[to + i] = bytes[i]!;
    this.add(this.arenaUsed + length, hash, slot);
    return -1;
  }

  /**
   * The table copied into SharedArrayBuffers, for a table built once and then only read (a lookup's
   * keys): IdTable.fromShared gives a thread its view of that memory without another copy.
   */
  share(): SharedIdTable {
    const u8 = (a: Uint32Array) => new Uint8Array(a.buffer, a.byteOffset, 4 * this.count);
    return {
      arena: shared(this.arena.subarray(0, this.arenaUsed)),
      starts: shared(u8(this.starts)),
      hashes: shared(u8(this.hashes)),
      slots: shared(new Uint8Array(this.slots.buffer, this.slots.byteOffset, this.slots.byteLength)),
    };
  }

  /** A read-only view of a shared table: indexOf and has, never claim (it cannot grow). */
  static fromShared(parts: SharedIdTable): Pick<IdTable, 'indexOf' | 'has' | 'size'> {
    const table = new IdTable();
    table.arena = Buffer.from(parts.arena);
    table.arenaUsed = parts.arena.byteLength;
    table.starts = new Uint32Array(parts.starts);
    table.hashes = new Uint32Array(parts.hashes);
    table.slots = new Uint32Array(parts.slots);
    table.count = table.starts.length;
    return table;
  }

  /** Every id with its entry number, in the order added (the state store writes its snapshot from this). */
  forEach(each: (id: string, index: number) => void): void {
    for (let e = 0; e < this.count; e++) each(this.arena.toString(encodingOf(this.hashes[e]!), this.starts[e], this.end(e)), e);
  }

  private end(e: number): number {
    return e + 1 < this.count ? this.starts[e + 1]! : this.arenaUsed;
  }

  private find(id: string, hash: number): number {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    let bytes = -1;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY) return slot;
      if (this.hashes[entry - 1] === hash) {
        const start = this.starts[entry - 1]!;
        const end = this.end(entry - 1);
        if ((hash & 1) === 0 && id.length <= SHORT) {
          // a short Latin-1 id (the usual one) is compared unit by unit: encoding it to compare
          // buffers cost two native calls per lookup
          if (end - start === id.length && this.sameLatin1(id, start)) return slot;
        } else {
          if (bytes < 0) bytes = this.encode(id, hash);
          if (end - start === bytes && this.arena.compare(this.scratch, 0, bytes, start, end) === 0) return slot;
        }
      }
      slot = (slot + 1) & mask;
    }
  }

  private sameLatin1(id: string, start: number): boolean {
    const arena = this.arena;
    for (let i = 0; i < id.length; i++) if (arena[start + i] !== id.charCodeAt(i)) return false;
    return true;
  }

  private sameBytes(bytes: Uint8Array, start: number, length: number, at: number): boolean {
    const arena = this.arena;
    for (let i = 0; i < length; i++) if (arena[at + i] !== bytes[start + i]) return false;
    return true;
  }

  private encode(id: string, hash: number): number {
    const need = bytesOf(id, hash);
    if (need > this.scratch.length) this.scratch = Buffer.allocUnsafe(need * 2);
    return this.scratch.write(id, 0, encodingOf(hash));
  }

  private insert(id: string, hash: number, slot: number): void {
    const need = bytesOf(id, hash);
    if (this.arenaUsed + need > this.arena.length) this.growArena(need);
    this.add(this.arenaUsed + this.arena.write(id, this.arenaUsed, encodingOf(hash)), hash, slot);
  }

  /** Records the entry whose bytes were just written at the arena's end, up to `end`, in the empty `slot`. */
  private add(end: number, hash: number, slot: number): void {
    if (this.count === this.starts.length) this.growEntries();
    this.starts[this.count] = this.arenaUsed;
    this.hashes[this.count] = hash;
    this.arenaUsed = end;
    this.count += 1;
    this.slots[slot] = this.count;
    if (this.count * 2 > this.slots.length) this.rehash();
  }

  private growArena(need: number): void {
    // 1.5x, not 2x: the arena is the table's biggest part, and a doubling leaves up to half of it unused
    this.arena = grownBuffer(this.arena, Math.max(Math.ceil(this.arena.length * 1.5), this.arenaUsed + need), this.arenaUsed);
  }

  private growEntries(): void {
    const size = Math.ceil(this.starts.length * 1.5);
    this.starts = grownUint32(this.starts, size);
    this.hashes = grownUint32(this.hashes, size);
  }

  private rehash(): void {
    const slots = new Uint32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let e = 0; e < this.count; e++) {
      let slot = this.hashes[e]! & mask;
      while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      slots[slot] = e + 1;
    }
    release(this.slots);
    this.slots = slots;
  }
}
