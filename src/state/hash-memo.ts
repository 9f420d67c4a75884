// Hashes that `unchanged` computed for items it found changed, kept until `accepted` records them,
// so an item is hashed once per run, not once per hook. Keyed by the item JSON itself: it decides
// the hash, so a hit is always right, and both hooks get the same string, whose V8 hash is cached.
// Two generations bound it: an entry never accepted (rejected, not sent) is dropped after a few
// thousand more; an item still in flight by then is just hashed again.
import type { ItemHash } from '../util/item-hash.js';

export class HashMemo {
  private current = new Map<string, ItemHash>();
  private previous = new Map<string, ItemHash>();

  constructor(private readonly generation = 8192) {}

  remember(json: string, h: ItemHash): void {
    if (this.current.size >= this.generation) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(json, h);
  }

  /** The remembered hash of `json`, forgotten as it is returned. */
  take(json: string): ItemHash | undefined {
    // a first run remembers nothing: skip hashing the key of every accepted item
    if (this.current.size === 0 && this.previous.size === 0) return undefined;
    for (const map of [this.current, this.previous]) {
      const h = map.get(json);
      if (h !== undefined) {
        map.delete(json);
        return h;
      }
    }
    return undefined;
  }
}
