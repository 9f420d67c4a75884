// The sandbox's records: one Map per resource keyed by externalId, optionally loaded from and saved
// to a JSON file. Saves are atomic (temp file + rename: a crash never leaves half a file) and
// debounced, because writing the whole store after every batch would cap throughput at disk speed.
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { RESOURCES, type Resource } from '../contract/resources.js';
import { ConfigError } from '../errors.js';

export type StoredRecord = Record<string, unknown> & { externalId: string };

interface StoreFile {
  version: 1;
  records: Partial<Record<Resource, StoredRecord[]>>;
}

const MIN_SAVE_INTERVAL_MS = 200;

export class RecordStore {
  private readonly maps = new Map<Resource, Map<string, StoredRecord>>(RESOURCES.map((r) => [r, new Map()]));
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  private lastSaveMs = 0;
  /** A failed background save, handed to the next flush() (close() calls it) instead of crashing. */
  private failure: unknown;

  constructor(private readonly path?: string) {}

  map(resource: Resource): Map<string, StoredRecord> {
    return this.maps.get(resource)!;
  }

  /** A missing file is an empty store; a file that is not ours is refused rather than overwritten. */
  async load(): Promise<void> {
    if (!this.path) return;
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new ConfigError(`cannot read the sandbox store ${this.path}`, { cause: error });
    }
    const refuse = (why: string) =>
      new ConfigError(`${this.path} is not a sandbox store: ${why}`, { suggestion: 'point --store at a new file, or delete this one' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw refuse((error as Error).message);
    }
    const records = (parsed as Partial<StoreFile> | null)?.records;
    if (typeof records !== 'object' || records === null) throw refuse('no "records" object');
    for (const resource of RESOURCES) {
      const list = records[resource] ?? [];
      if (!Array.isArray(list)) throw refuse(`records.${resource} is not an array`);
      for (const rec of list) {
        if (typeof rec?.externalId !== 'string') throw refuse(`a record of ${resource} has no externalId`);
        this.map(resource).set(rec.externalId, rec);
      }
    }
  }

  /** Marks the store changed and schedules a save; many batches share one write. */
  changed(): void {
    if (!this.path) return;
    this.dirty = true;
    if (this.timer) return;
    // the slower the last save (a big store), the longer between saves: disk never dominates
    const delay = Math.max(MIN_SAVE_INTERVAL_MS, this.lastSaveMs * 4);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.queueSave();
    }, delay);
    this.timer.unref();
  }

  /** Writes now if anything changed; resolves when the file on disk holds every change so far. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.queueSave();
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }

  /** Saves run one after another and never reject: a failure waits in `failure`. */
  private queueSave(): Promise<void> {
    this.saving = this.saving
      .then(() => (this.dirty ? this.save() : undefined))
      .catch((error: unknown) => {
        this.failure = error;
      });
    return this.saving;
  }

  clear(): void {
    for (const m of this.maps.values()) m.clear();
    this.changed();
  }

  private async save(): Promise<void> {
    const path = this.path!;
    this.dirty = false;
    const started = performance.now();
    const file: StoreFile = { version: 1, records: {} };
    for (const resource of RESOURCES) file.records[resource] = [...this.map(resource).values()];
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await writeFile(tmp, JSON.stringify(file));
      await rename(tmp, path);
    } catch (error) {
      this.dirty = true;
      await unlink(tmp).catch(() => undefined);
      throw new ConfigError(`cannot save the sandbox store ${path}`, { cause: error });
    } finally {
      this.lastSaveMs = performance.now() - started;
    }
  }
}
