// The size rule ARCHITECTURE.md states: no source file over 300 lines (functions over 80 lines are
// Biome's noExcessiveLinesPerFunction, in npm run lint). A file that grows past it is split by what
// it does, not trimmed of its comments.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test('no src file is over 300 lines', () => {
  const long = sources('src')
    .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > 300);
  expect(long).toEqual([]);
});

test('only config/ reads process.env (and bin/): the rest is handed plain values', () => {
  const readers = sources('src')
    .filter((file) => !file.startsWith(join('src', 'config')))
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
        .filter(({ line }) => /\bprocess\.env\b/.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line)),
    )
    .map((r) => r.where);
  expect(readers).toEqual([]);
});
