// One place decides each setting of a run: a flag beats the environment, which beats the plan,
// which beats the default (config/options.ts declares each). Two groups are derived from several
// options at once: how the API answers, and whether the run keeps a state directory.
import { join, resolve } from 'node:path';
import { ANSWER_STYLES } from '../contract/answer-styles.js';
import { networkEnv } from './network-env.js';
import { resolveOptions, type GivenFlags, type OptionValues } from './option.js';
import { RUN_OPTIONS } from './options.js';
import type { SyncPlan } from './sync-plan.js';

export { BASE_URL_ENV, type Engine } from './options.js';

/** Internal tuning of the read worker, for tests: chunk boundaries inside small inputs, RAW chunks or none. */
export interface ReadTuning {
  /** Which chunks the worker leaves RAW for the main thread: alternate ones (auto), every one or none. */
  split: 'auto' | 'all' | 'none';
  chunkRows: number;
}
/** Beside the plan file when a plan is used, else in the working directory. */
export const DEFAULT_STATE_DIR = '.batch-sync';

type Values = OptionValues<typeof RUN_OPTIONS>;

/**
 * The state directory is used (lock, state, reports) when incremental mode is on, --full is given,
 * or a state or report directory is named. Flag paths are relative to the working directory, plan
 * paths to the plan file.
 */
function unattended(v: Values, given: GivenFlags, plan: SyncPlan | undefined, cwd: string) {
  const configured = v.incremental ?? false;
  const full = v.full ?? false;
  if (!configured && !full && v.stateDir === undefined && v.reportDir === undefined) return { incremental: false, recordState: false };
  const base = (key: 'stateDir' | 'reportDir') => (given[key] !== undefined ? cwd : (plan?.dir ?? cwd));
  const stateDir = resolve(base('stateDir'), v.stateDir ?? DEFAULT_STATE_DIR);
  const reportDir = v.reportDir !== undefined ? resolve(base('reportDir'), v.reportDir) : join(stateDir, 'reports');
  return { incremental: configured && !full, recordState: configured || full, stateDir, reportDir };
}

/**
 * The answers profile: a style given as a flag sets both switches; otherwise each comes from the
 * plan's `answers` (success also from its old `defaults.checkSuccessCount`), then the style's
 * preset. `--no-check-success-count` always wins for success.
 */
function answers(v: Values, given: GivenFlags) {
  const preset = ANSWER_STYLES[v.answerStyle];
  const fromFlag = given.answerStyle !== undefined;
  return {
    checkSuccessCount:
      given.checkSuccessCount !== undefined ? v.checkSuccessCount! : fromFlag ? preset.successIsCount : (v.checkSuccessCount ?? preset.successIsCount),
    namesItems: fromFlag ? preset.namesItems : (v.namesItems ?? preset.namesItems),
  };
}

export function resolveSettings(given: GivenFlags, plan: SyncPlan | undefined, env: Record<string, string | undefined> = process.env, cwd = process.cwd()) {
  const v = resolveOptions(RUN_OPTIONS, given, env, plan);
  const { incremental: _incremental, full: _full, stateDir: _stateDir, reportDir: _reportDir, readSplit, readChunkRows, ...settings } = v;
  const readTuning: ReadTuning = { split: readSplit, chunkRows: readChunkRows };
  return { ...settings, readTuning, ...answers(v, given), ...unattended(v, given, plan, cwd), ...networkEnv(env) };
}
export type ResolvedSettings = ReturnType<typeof resolveSettings>;
