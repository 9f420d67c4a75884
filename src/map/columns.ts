// Columns a profile names, found in the file's header: exactly, else ignoring case and surrounding
// spaces. A column that is not there is a ConfigError naming the profile field and close matches.
import { ConfigError } from '../errors.js';
import { closeMatches } from './close-matches.js';

export interface ColumnResolver {
  /** The header's own spelling of `name`; `where` is the profile field that names it. */
  resolve(name: string, where: string): string;
}

export function columnResolver(header: readonly string[] | undefined, file: string, profileName: string): ColumnResolver {
  if (!header) return { resolve: (name) => name }; // JSON records: keys are only known per record
  const exact = new Set(header);
  const loose = new Map<string, string[]>();
  for (const h of header) {
    const key = h.trim().toLowerCase();
    loose.set(key, [...(loose.get(key) ?? []), h]);
  }
  return {
    resolve(name, where) {
      if (exact.has(name)) return name;
      const candidates = loose.get(name.trim().toLowerCase());
      if (candidates?.length === 1) return candidates[0]!;
      const near = closeMatches(name, header);
      throw new ConfigError(
        `profile ${profileName}: ${where}: column "${name}" is not in ${file}${near.length ? `; close matches: ${near.join(', ')}` : ''}`,
        { suggestion: `the file's columns are: ${header.map((h) => `"${h}"`).join(', ')}` },
      );
    },
  };
}
