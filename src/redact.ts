// The API key never appears in output: every text that leaves the process passes through here.

const secrets = new Set<string>();

/** Registers a value (the API key, proxy credentials) to be masked wherever it would be printed. */
export function addSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) {
    if (out.includes(s)) out = out.split(s).join('***');
    // a text cut to a length inside a secret (a body read up to a limit) ends with its beginning
    for (let n = Math.min(s.length - 1, out.length); n >= 4; n--) {
      if (out.endsWith(s.slice(0, n))) {
        out = `${out.slice(0, -n)}***`;
        break;
      }
    }
  }
  // credentials in URLs: scheme://user:pass@host
  return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, '$1***:***@');
}

/** For tests: forget registered secrets. */
export function clearSecrets(): void {
  secrets.clear();
}
