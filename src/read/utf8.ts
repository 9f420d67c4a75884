// UTF-8 checks on raw bytes, so a stream can be validated chunk by chunk without decoding twice.

/** How many bytes at the end of `buf` start a multi-byte sequence that the next chunk completes. */
export function incompleteTail(buf: Uint8Array): number {
  const n = buf.length;
  // a sequence is at most 4 bytes: look back at most 3 for its lead byte
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = buf[n - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/** Offset of the first byte that is not valid UTF-8, or -1. Only used on the error path. */
export function firstInvalidUtf8(buf: Uint8Array): number {
  let i = 0;
  const n = buf.length;
  while (i < n) {
    const b = buf[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xc2 && b <= 0xdf ? 1 : -1;
    if (need < 0) return i;
    // second-byte ranges that rule out overlong forms, surrogates and code points past U+10FFFF
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    const second = buf[i + 1];
    if (second === undefined || second < lo || second > hi) return i;
    for (let k = 2; k <= need; k++) {
      const c = buf[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return -1;
}
