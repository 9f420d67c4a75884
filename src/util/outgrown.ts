// Growing the typed arrays that hold a run's ids (IdTable, the state's hash table, first-seen lines)
// by copying into a larger one. The outgrown array's memory is outside the JS heap, and it was freed
// only when a full GC got to its wrapper, which had long been promoted to the old space, so the
// outgrown arrays piled up and the peak was about twice the table. Transferring it away instead
// leaves the old wrapper empty and hands the memory to a new wrapper that dies young, so it goes at
// the next scavenge and the peak stays close to the table itself.

/** Frees `view`'s memory at the next scavenge, when the view owns its whole buffer (never Node's shared pool); `view` is unusable afterwards. */
export function release(view: ArrayBufferView): void {
  const buffer = view.buffer;
  if (view.byteOffset !== 0 || view.byteLength !== buffer.byteLength || !(buffer instanceof ArrayBuffer)) return;
  structuredClone(buffer, { transfer: [buffer] });
}

/** A larger copy of `old` (`length` elements); `old` is unusable afterwards. */
export function grownUint32(old: Uint32Array, length: number): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(length);
  next.set(old);
  release(old);
  return next;
}

/** A larger copy of the first `used` bytes of `old` (`length` bytes); `old` is unusable afterwards. */
export function grownBuffer(old: Buffer, length: number, used: number): Buffer<ArrayBuffer> {
  const next = Buffer.allocUnsafe(length);
  old.copy(next, 0, 0, used);
  release(old);
  return next;
}
