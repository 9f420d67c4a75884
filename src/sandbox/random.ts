// A seedable source of numbers in [0, 1) for fault injection: with a seed, which batches fail is the
// same on every run, so tests of retries do not flake. (mulberry32: tiny, fast, good enough for this.)

export type Random = () => number;

function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Without a seed, a fresh one each start: faults still vary between runs. */
export function makeRandom(seed?: number): Random {
  return seededRandom(seed ?? Math.floor(Math.random() * 2 ** 32));
}
