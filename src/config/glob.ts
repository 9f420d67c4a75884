// `*`, `?` and `**` in job file patterns. Node 20 has no fs.glob; this is the small part we need.
import { readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

const MAGIC = /[*?]/;

function segmentRegex(segment: string): RegExp {
  const body = segment
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

/** Files matching an absolute pattern, sorted so runs are repeatable. A pattern with no magic is returned as is if it exists. */
export async function expandGlob(pattern: string): Promise<string[]> {
  if (!MAGIC.test(pattern)) {
    const exists = await stat(pattern).then(
      (s) => s.isFile(),
      () => false,
    );
    return exists ? [pattern] : [];
  }
  const parts = pattern.split(sep);
  const results: string[] = [];
  async function walk(dir: string, index: number): Promise<void> {
    if (index === parts.length) {
      if (
        await stat(dir).then(
          (s) => s.isFile(),
          () => false,
        )
      )
        results.push(dir);
      return;
    }
    const part = parts[index]!;
    if (!MAGIC.test(part)) return walk(index === 0 ? part || sep : join(dir, part), index + 1);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    if (part === '**') {
      await walk(dir, index + 1);
      for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.')) await walk(join(dir, e.name), index);
      return;
    }
    const re = segmentRegex(part);
    for (const e of entries) if (re.test(e.name) && !e.name.startsWith('.')) await walk(join(dir, e.name), index + 1);
  }
  await walk('', 0);
  return [...new Set(results)].sort();
}
