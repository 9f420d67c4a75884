// The engine this pass of the suite runs (BATCH_SYNC_ENGINE, read as the CLI reads it), for the
// tests that call the core directly instead of through the CLI.
import { resolveSettings, type ResolvedSettings } from '../../src/config/settings.js';

export function engineSettings(): Pick<ResolvedSettings, 'engine' | 'readTuning'> {
  const { engine, readTuning } = resolveSettings({}, undefined);
  return { engine, readTuning };
}
