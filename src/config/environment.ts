// The environment that shapes what the terminal gets, read here so report/ and commands/ are
// handed plain values (only config/ and bin/ read process.env).

/** `TERM=dumb` without `FORCE_COLOR`: no colour at all, whatever chalk would detect. */
export function plainTerminal(env: Record<string, string | undefined> = process.env): boolean {
  return env.TERM === 'dumb' && !env.FORCE_COLOR;
}

/** Running in a GitHub Actions step: the runner reads every line printed for workflow commands (report/workflow-guard.ts). */
export function githubActions(env: Record<string, string | undefined> = process.env): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** The sandbox's key when --api-key is not given (config/sandbox-options.ts); an empty value counts as unset. */
export const SANDBOX_KEY_ENV = 'BATCH_SYNC_SANDBOX_API_KEY';

/** This process's environment, for the options read from it (config/option.ts resolveOptions). */
export function processEnv(): Record<string, string | undefined> {
  return process.env;
}
