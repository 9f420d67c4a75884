// A workbook made from another part by part, each part's bytes through `change` (a part re-encoded,
// say), for tests of what other writers do to a normal workbook. Read with yauzl, written with the
// tests' own zip writer (fixtures/xlsx/xlsx-writer.mjs), so the parts keep their names and order.
import { readFileSync, writeFileSync } from 'node:fs';
import yauzl from 'yauzl';
// @ts-expect-error: a plain .mjs module without types
import { ZipWriter } from '../../fixtures/xlsx/xlsx-writer.mjs';

async function partsOf(file: string): Promise<[string, Buffer][]> {
  const zip = await yauzl.openPromise(file);
  const parts: [string, Buffer][] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      parts.push([entry.fileName, Buffer.concat(chunks)]);
    }
  } finally {
    zip.close();
  }
  return parts;
}

/**
 * Writes `to`: the parts of `from`, each through `change`. `corrupt`: that part is stored
 * (uncompressed) and one of its bytes changed after its CRC-32 was taken.
 */
export async function rewriteWorkbook(from: string, to: string, change: (name: string, bytes: Buffer) => Buffer, options: { corrupt?: string } = {}) {
  const zip = new ZipWriter(to);
  for (const [name, bytes] of await partsOf(from)) await zip.add(name, change(name, bytes), { stored: name === options.corrupt });
  await zip.close();
  if (options.corrupt) {
    const written = readFileSync(to);
    const at = written.indexOf('</sheetData>');
    written[at + 2] = 'S'.charCodeAt(0);
    writeFileSync(to, written);
  }
  return to;
}
