// Turns what the file system says into one-line errors a user can act on, never a stack trace.

import { InputError } from '../errors.js';

export function fileError(file: string, err: unknown): InputError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new InputError(`${file}: no such file`, { suggestion: 'Check the path and the file name.', cause: err });
    case 'EACCES':
    case 'EPERM':
      return new InputError(`${file}: permission denied`, {
        suggestion: 'Check that your user can read the file (or copy it somewhere readable).',
        cause: err,
      });
    case 'EISDIR':
      return new InputError(`${file}: is a directory, not a file`, { cause: err });
    default:
      return new InputError(`${file}: cannot be read (${code ?? (err as Error)?.message ?? String(err)})`, { cause: err });
  }
}

/** `file:line: message` when the line is known: the form editors and terminals make clickable. */
export function at(file: string, line: number | undefined): string {
  return line === undefined ? file : `${file}:${line}`;
}
