// The x-api-key check. Both sides are hashed first so timingSafeEqual always compares 32 bytes: the
// time taken says nothing about how much of a guess was right, nor about the key's length.
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export function apiKeyChecker(expected: string): (provided: string | string[] | undefined) => boolean {
  const want = digest(expected);
  return (provided) => {
    if (typeof provided !== 'string') return false;
    return timingSafeEqual(digest(provided), want);
  };
}
