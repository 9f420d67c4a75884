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
  }
  // credentials in URLs: scheme://user:pass@host
  return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, '$1***:***@');
}

/** For tests: forget registered secrets. */
export function clearSecrets(): void {
  secrets.clear();
}
