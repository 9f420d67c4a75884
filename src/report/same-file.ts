// Whether an output path names a file the run reads. A path compare (even through realpath) misses
// a hard link: `ln in.csv out.ndjson` gives one file two unrelated names, and `--emit out.ndjson`
// truncated the input. So files that exist are compared by device and inode as well.
import { realpathSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

export interface InputFiles {
  /** The input that `path` is (by name, symlink or hard link), or undefined when it is none of them. */
  find(path: string): string | undefined;
}

const identity = (path: string): string | undefined => {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
};

export function inputFiles(paths: readonly string[]): InputFiles {
  const byPath = new Map<string, string>();
  const byInode = new Map<string, string>();
  for (const p of paths) {
    byPath.set(canonical(p), p);
    const id = identity(p);
    if (id !== undefined) byInode.set(id, p);
  }
  return {
    find(path) {
      const named = byPath.get(canonical(path));
      if (named !== undefined) return named;
      const id = identity(path);
      return id === undefined ? undefined : byInode.get(id);
    },
  };
}

/** The same file however it is named: resolved, and through symlinks when it exists. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // not there yet: the errors file's directory is real (checked), so resolve through it
    try {
      return join(realpathSync(resolve(path, '..')), basename(path));
    } catch {
      return resolve(path);
    }
  }
}

/** ` (the same file as <input>)` when the output path is another name for it (a link), else nothing. */
export function sameFileNote(output: string, input: string): string {
  return canonical(output) === canonical(input) ? '' : ` (the same file as ${input})`;
}
