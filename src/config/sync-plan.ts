// The sync plan (`batch-sync.config.json`): where to send, and which files to read with which
// profiles. Validated with zod; errors name the plan file and the field. Paths are relative to the
// plan file. The API key never lives here.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { formatPath } from '../contract/issues.js';
import { parseResource, RESOURCE_NAMES_HELP } from '../contract/resources.js';
import { ConfigError } from '../errors.js';
import { expandGlob } from './glob.js';
import { planShape } from './option.js';
import { READER_OPTIONS } from './options-reader.js';
import { RUN_OPTIONS } from './options.js';
import { isFileOnDisk, siblingProfile } from './pair-profiles.js';
import type { ReaderOptions } from '../read/types.js';
import type { Job } from './job.js';

export const DEFAULT_PLAN_FILE = 'batch-sync.config.json';

const resourceName = z
  .string()
  .refine((s) => parseResource(s) !== undefined, { error: (iss) => `${JSON.stringify(iss.input)} is not a resource (${RESOURCE_NAMES_HELP})` });

const syncPlanSchema = z.strictObject({
  $schema: z.string().optional(),
  // baseUrl, source, defaults, answers, incremental, stateDir, reportDir, maxRejections, maxRejectionRate
  ...planShape(RUN_OPTIONS),
  jobs: z
    .array(
      z.strictObject({
        file: z.string().min(1),
        resource: resourceName.optional(),
        profile: z.string().min(1).optional(),
        reader: planShape(READER_OPTIONS).reader!,
      }),
    )
    .min(1),
});

type SyncPlanFile = z.infer<typeof syncPlanSchema>;

export interface SyncPlan extends Omit<SyncPlanFile, 'jobs'> {
  path: string;
  dir: string;
  jobs: Job[];
}

export async function loadSyncPlan(path: string): Promise<SyncPlan> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`${path}: ${code === 'ENOENT' ? 'no such plan file' : (error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ConfigError(`${path}: not valid JSON: ${(error as Error).message}`);
  }
  // a key-looking field is refused for what it is, not merely as an unknown field
  const keyField = json && typeof json === 'object' ? Object.keys(json).find((k) => /api.?key|secret|token|password/i.test(k)) : undefined;
  if (keyField) throw new ConfigError(`${path}: ${keyField}: the API key never lives in the plan: use BATCH_SYNC_API_KEY or --api-key-file`);
  const parsed = syncPlanSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    throw new ConfigError(`${path}: ${formatPath(issue.path) || '(top level)'}: ${issue.message}${keys}`);
  }
  const dir = dirname(resolve(path));
  const jobs: Job[] = [];
  for (const job of parsed.data.jobs) {
    const files = await expandGlob(resolve(dir, job.file));
    if (files.length === 0) throw new ConfigError(`${path}: jobs: "${job.file}" matches no file (relative to ${dir})`);
    for (const file of files) {
      // a job without a profile takes the one beside its file, as a file named on the command line does
      const beside = job.profile ? undefined : siblingProfile(file);
      const found = beside !== undefined && isFileOnDisk(beside);
      jobs.push({
        file,
        resource: job.resource ? parseResource(job.resource) : undefined,
        profile: job.profile ? resolve(dir, job.profile) : found ? beside : undefined,
        ...(found ? { profileBeside: true } : {}),
        reader: job.reader as ReaderOptions | undefined,
      });
    }
  }
  return { ...parsed.data, path, dir, jobs };
}
