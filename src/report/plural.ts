// A count with its noun: `1 row`, `3 rows`, `2 retries`. Report text says counts this way everywhere.

/** `n` and the noun in the number it takes (`many` defaults to `one` + s). */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
