import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import { loadSyncPlan } from '../../src/config/sync-plan.js';
import { tempFiles } from '../helpers/cli.js';

function planIn(plan: unknown, files: Record<string, string> = {}) {
  const dir = tempFiles(files);
  const path = join(dir, 'batch-sync.config.json');
  writeFileSync(path, typeof plan === 'string' ? plan : JSON.stringify(plan));
  return { dir, path };
}

describe('the sync plan', () => {
  test('paths are relative to the plan file, and globs expand in a stable order', async () => {
    const { dir, path } = planIn({ source: 'crm', jobs: [{ file: 'exports/deals-*.csv', resource: 'deals', profile: 'p/deals.json' }] });
    mkdirSync(join(dir, 'exports'));
    for (const name of ['deals-2.csv', 'deals-1.csv', 'accounts.csv']) writeFileSync(join(dir, 'exports', name), 'x');
    const plan = await loadSyncPlan(path);
    expect(plan.jobs).toEqual([
      { file: join(dir, 'exports/deals-1.csv'), resource: 'deal', profile: join(dir, 'p/deals.json'), reader: undefined },
      { file: join(dir, 'exports/deals-2.csv'), resource: 'deal', profile: join(dir, 'p/deals.json'), reader: undefined },
    ]);
  });

  test('errors name the plan file and the field', async () => {
    const bad = async (plan: unknown) => (await loadSyncPlan(planIn(plan, { 'a.csv': 'x' }).path).catch((e: Error) => e)) as Error;
    expect((await bad({ jobs: [{ file: 'a.csv', resource: 'invoice' }] })).message).toMatch(
      /batch-sync\.config\.json: jobs\[0\]\.resource: "invoice" is not a resource/,
    );
    expect((await bad({ jobs: [{ file: 'a.csv' }], defaults: { batchSize: 0 } })).message).toMatch(/defaults\.batchSize/);
    expect((await bad({ jobs: [{ file: 'a.csv' }], colour: 'red' })).message).toMatch(/\(top level\): .*colour/);
    expect((await bad({ jobs: [{ file: 'missing-*.csv' }] })).message).toMatch(/matches no file/);
    expect((await bad('{ "jobs": [ }')).message).toMatch(/not valid JSON/);
  });

  test('the API key never lives in the plan', async () => {
    const error = (await loadSyncPlan(planIn({ apiKey: 'k', jobs: [{ file: 'a.csv' }] }, { 'a.csv': 'x' }).path).catch((e: Error) => e)) as Error;
    expect(error.message).toMatch(/apiKey: the API key never lives in the plan: use BATCH_SYNC_API_KEY or --api-key-file/);
    expect(error.message).not.toContain(': k');
  });
});

describe('settings: a flag beats the environment, which beats the plan, which beats the default', () => {
  const plan = { baseUrl: 'https://plan.example.com', source: 'plan-src', defaults: { batchSize: 50, concurrency: 2 } } as never;
  test('each setting from the first that has it', () => {
    expect(resolveSettings({}, undefined, {})).toMatchObject({
      baseUrl: undefined,
      source: 'batch-sync',
      batchSize: 100,
      // unset: the limit adapts, up to maxConcurrency
      concurrency: undefined,
      maxConcurrency: 32,
      maxRate: undefined,
      method: 'post',
      holdDependents: true,
    });
    expect(resolveSettings({}, plan, {})).toMatchObject({ baseUrl: 'https://plan.example.com', source: 'plan-src', batchSize: 50, concurrency: 2 });
    expect(resolveSettings({}, plan, { BATCH_SYNC_BASE_URL: 'https://env.example.com' })).toMatchObject({ baseUrl: 'https://env.example.com', batchSize: 50 });
    expect(resolveSettings({ baseUrl: 'https://flag.example.com', batchSize: '7' }, plan, { BATCH_SYNC_BASE_URL: 'https://env.example.com' })).toMatchObject({
      baseUrl: 'https://flag.example.com',
      batchSize: 7,
    });
  });
  test('a bad value names its flag', () => {
    expect(() => resolveSettings({ batchSize: 'many' }, undefined, {})).toThrow(/--batch-size takes a whole number/);
    expect(() => resolveSettings({ concurrency: '0' }, undefined, {})).toThrow(/--concurrency must be at least 1/);
    expect(() => resolveSettings({ maxRate: '0' }, undefined, {})).toThrow(/--max-rate takes a number of requests per second above 0/);
    expect(() => resolveSettings({ maxRate: 'fast' }, undefined, {})).toThrow(/--max-rate takes a number of requests per second/);
    expect(resolveSettings({}, { defaults: { maxRate: 2.5, maxConcurrency: 8 } } as never, {})).toMatchObject({ maxRate: 2.5, maxConcurrency: 8 });
    expect(() => resolveSettings({ baseUrl: 'api.example.com' }, undefined, {})).toThrow(/--base-url "api.example.com" is not a URL/);
    expect(() => resolveSettings({ method: 'put' }, undefined, {})).toThrow(/--method takes post or patch/);
  });
});

describe('the engine (simple, fast, auto): one setting, decided here', () => {
  const engine = (flags: { engine?: string }, env: NodeJS.ProcessEnv = {}, planned?: string) =>
    resolveSettings(flags, (planned ? { defaults: { engine: planned } } : undefined) as never, env).engine;
  test("the flag, then $BATCH_SYNC_ENGINE, then the plan's defaults.engine, else auto", () => {
    expect(engine({})).toBe('auto');
    expect(engine({}, {}, 'fast')).toBe('fast');
    expect(engine({}, { BATCH_SYNC_ENGINE: 'simple' }, 'fast')).toBe('simple');
    expect(engine({ engine: 'fast' }, { BATCH_SYNC_ENGINE: 'simple' }, 'auto')).toBe('fast');
    // an empty variable is no value, as for the base URL
    expect(engine({}, { BATCH_SYNC_ENGINE: '' })).toBe('auto');
  });
  test('an unknown engine is a usage error that says where it may come from', () => {
    expect(() => engine({}, { BATCH_SYNC_ENGINE: 'turbo' })).toThrow('BATCH_SYNC_ENGINE takes simple, fast or auto, not "turbo"');
    expect(() => engine({ engine: 'Fast' })).toThrow(/not "Fast"/);
  });
  test("the read worker's tuning for tests is read here too, never deep in the core", () => {
    expect(resolveSettings({}, undefined, {}).readTuning).toEqual({ split: 'auto', chunkRows: 1024 });
    expect(resolveSettings({}, undefined, { BATCH_SYNC_READ_SPLIT: 'all', BATCH_SYNC_READ_CHUNK_ROWS: '3' }).readTuning).toEqual({
      split: 'all',
      chunkRows: 3,
    });
  });
  test("a plan's defaults.engine is checked with the plan", async () => {
    const { path } = planIn({ defaults: { engine: 'turbo' }, jobs: [{ file: 'deals.csv' }] }, { 'deals.csv': 'externalId\n' });
    await expect(loadSyncPlan(path)).rejects.toThrow(/defaults\.engine/);
    const ok = planIn({ defaults: { engine: 'simple' }, jobs: [{ file: 'deals.csv' }] }, { 'deals.csv': 'externalId\n' });
    expect(((await loadSyncPlan(ok.path)) as { defaults?: { engine?: string } }).defaults?.engine).toBe('simple');
  });
});

describe('the answers profile (how the API answers)', () => {
  const resolve = (flags: Record<string, unknown>, plan?: unknown) => {
    const s = resolveSettings(flags as never, plan as never, {});
    return {
      style: s.answerStyle,
      successIsCount: s.checkSuccessCount,
      namesItems: s.namesItems,
      successCodes: s.successCodes,
      isolate: s.isolateUnattributed,
      budget: s.isolationBudget,
    };
  };
  test('the defaults follow the documentation: success not a count, details may name no item, codes 200 and 201, no isolation', () => {
    expect(resolve({})).toEqual({ style: 'documented', successIsCount: false, namesItems: false, successCodes: [200, 201], isolate: false, budget: 5000 });
  });
  test('--answers named sets both switches; --no-check-success-count still turns success off', () => {
    expect(resolve({ answerStyle: 'named' })).toMatchObject({ style: 'named', successIsCount: true, namesItems: true });
    expect(resolve({ answerStyle: 'named', checkSuccessCount: false })).toMatchObject({ successIsCount: false, namesItems: true });
  });
  test('the plan sets it once; its old defaults.checkSuccessCount still means successIsCount; flags win', () => {
    const plan = { answers: { successIsCount: true, successCodes: [200, 201, 207] }, defaults: { isolateUnattributed: true, isolationBudget: 40 } };
    expect(resolve({}, plan)).toEqual({
      style: 'documented',
      successIsCount: true,
      namesItems: false,
      successCodes: [200, 201, 207],
      isolate: true,
      budget: 40,
    });
    expect(resolve({}, { defaults: { checkSuccessCount: true } })).toMatchObject({ successIsCount: true });
    expect(resolve({}, { answers: { style: 'named' } })).toMatchObject({ successIsCount: true, namesItems: true });
    expect(resolve({ answerStyle: 'documented', isolationBudget: '7' }, { answers: { style: 'named' } })).toMatchObject({ successIsCount: false, budget: 7 });
  });
  test('a plan answers field of the wrong kind is refused naming it', async () => {
    const error = (await loadSyncPlan(planIn({ answers: { style: 'loud' }, jobs: [{ file: 'a.csv' }] }, { 'a.csv': 'x' }).path).catch(
      (e: Error) => e,
    )) as Error;
    expect(error.message).toMatch(/batch-sync\.config\.json: answers\.style: /);
  });
});
