// The state store on a real directory: what it remembers, across reopen, torn journals and compaction.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FingerprintSet } from '../../src/state/row-fingerprint.js';
import { SNAPSHOT_HEADER } from '../../src/state/state-format.js';
import { JOURNAL_FILE, openStateStore, SNAPSHOT_FILE } from '../../src/state/state-store.js';

const dir = () => mkdtempSync(join(tmpdir(), 'batch-sync-state-'));
const tick = () => new Promise((r) => setImmediate(r));

describe('state store', () => {
  test('an accepted item is unchanged until its JSON changes, per method and resource', async () => {
    const d = dir();
    const s = openStateStore(d);
    s.accepted('post', 'deal', 'D-1', '{"a":1}');
    expect(s.unchanged('post', 'deal', 'D-1', '{"a":1}')).toBe(true);
    expect(s.unchanged('post', 'deal', 'D-1', '{"a":2}')).toBe(false);
    expect(s.unchanged('patch', 'deal', 'D-1', '{"a":1}')).toBe(false);
    expect(s.unchanged('post', 'account', 'D-1', '{"a":1}')).toBe(false);
    expect(s.unchanged('post', 'deal', 'D-2', '{"a":1}')).toBe(false);
    s.close();
  });

  test('an item found changed is recorded with its new hash, also after a reopen', async () => {
    const d = dir();
    const s = openStateStore(d);
    s.accepted('post', 'deal', 'D-1', '{"v":1}');
    expect(s.unchanged('post', 'deal', 'D-1', '{"v":2}')).toBe(false);
    s.accepted('post', 'deal', 'D-1', '{"v":2}');
    expect(s.unchanged('post', 'deal', 'D-1', '{"v":2}')).toBe(true);
    expect(s.unchanged('post', 'deal', 'D-1', '{"v":1}')).toBe(false);
    s.close();
    const r = openStateStore(d, { readOnly: true });
    expect(r.unchanged('post', 'deal', 'D-1', '{"v":2}')).toBe(true);
    expect(r.stats().entries).toBe(1);
  });

  test('a batch is in the journal once the turn that accepted it ends; reopening replays it', async () => {
    const d = dir();
    const s = openStateStore(d);
    for (let i = 0; i < 100; i++) s.accepted('post', 'deal', `D-${i}`, `{"i":${i}}`);
    await Promise.resolve();
    const lines = readFileSync(join(d, JOURNAL_FILE), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(100);
    expect(lines[0]).toMatch(/^post\tdeal\tD-0\t[0-9a-f]{16}$/);
    expect(s.stats().flushes).toBe(1);
    // a second store opened while the first never closed (a killed run) sees it all
    const again = openStateStore(d, { readOnly: true });
    expect(again.unchanged('post', 'deal', 'D-99', '{"i":99}')).toBe(true);
    s.close();
  });

  test('durable(): the journal is written first, and a promise says when its fsync (off the main thread) is done', async () => {
    const d = dir();
    const s = openStateStore(d);
    expect(s.durable()).toBeUndefined(); // nothing recorded yet
    for (let i = 0; i < 10; i++) s.accepted('post', 'deal', `D-${i}`, `{"i":${i}}`);
    // asked before the turn ended: the lines are written now, and the fsync is still running
    const syncing = s.durable();
    expect(syncing).toBeInstanceOf(Promise);
    expect(readFileSync(join(d, JOURNAL_FILE), 'utf8').trim().split('\n')).toHaveLength(10);
    await syncing;
    expect(s.durable()).toBeUndefined();
    // acknowledgements recorded while an fsync runs get one more before durable() resolves
    s.accepted('post', 'deal', 'D-10', '{"i":10}');
    const first = s.durable();
    s.accepted('post', 'deal', 'D-11', '{"i":11}');
    const second = s.durable();
    await Promise.all([first, second]);
    expect(s.durable()).toBeUndefined();
    expect(readFileSync(join(d, JOURNAL_FILE), 'utf8').trim().split('\n')).toHaveLength(12);
    s.close();
    expect(openStateStore(d, { readOnly: true }).stats().entries).toBe(12);
  });

  test("an item given as its UTF-8 bytes (the read worker's) is the same item as its text", async () => {
    const d = dir();
    const json = '{"externalId":"D-1","title":"Formação – lote 1 😀"}';
    const s = openStateStore(d);
    s.accepted('post', 'deal', 'D-1', json); // recorded by a run that read on one thread
    expect(s.unchanged('post', 'deal', 'D-1', Buffer.from(json, 'utf8'))).toBe(true);
    s.accepted('post', 'deal', 'D-2', new Uint8Array(Buffer.from(json, 'utf8')));
    expect(s.unchanged('post', 'deal', 'D-2', json)).toBe(true);
    expect(s.unchanged('post', 'deal', 'D-2', Buffer.from(json.replace('1', '2'), 'utf8'))).toBe(false);
    s.close();
  });

  test('an item accepted under one method makes the other methods forget it, across a reopen and a snapshot', async () => {
    const d = dir();
    const s = openStateStore(d);
    s.accepted('post', 'deal', 'D-1', '{"v":1}');
    s.accepted('patch', 'deal', 'D-2', '{"p":2}');
    s.accepted('patch', 'deal', 'D-1', '{"p":1}', ['post']);
    expect(s.unchanged('post', 'deal', 'D-1', '{"v":1}')).toBe(false);
    expect(s.unchanged('patch', 'deal', 'D-1', '{"p":1}')).toBe(true);
    await tick();
    const replayed = openStateStore(d, { readOnly: true });
    expect(replayed.unchanged('post', 'deal', 'D-1', '{"v":1}')).toBe(false);
    s.close();
    const compacted = openStateStore(d, { readOnly: true });
    expect(compacted.unchanged('post', 'deal', 'D-1', '{"v":1}')).toBe(false);
    expect(compacted.unchanged('patch', 'deal', 'D-2', '{"p":2}')).toBe(true);
    // a forgotten id is left out of the snapshot
    expect(readFileSync(join(d, SNAPSHOT_FILE), 'utf8')).not.toMatch(/0000000000000000/);
  });

  test('close folds the journal into a snapshot; ids that could break a line survive', async () => {
    const d = dir();
    const odd = ['tab\there', 'new\nline', '"quoted"', 'back\\slash', ' spaced ', 'ünï'];
    const s = openStateStore(d);
    odd.forEach((id, i) => {
      s.accepted('patch', 'account', id, `{"i":${i}}`);
    });
    s.accepted('post', 'deal', 'D-1', '{}');
    s.close();
    expect(statSync(join(d, JOURNAL_FILE)).size).toBe(0);
    expect(readFileSync(join(d, SNAPSHOT_FILE), 'utf8')).toMatch(/^batch-sync-state 2\n\tpatch\taccount\n/);
    const r = openStateStore(d);
    odd.forEach((id, i) => {
      expect(r.unchanged('patch', 'account', id, `{"i":${i}}`)).toBe(true);
    });
    expect(r.unchanged('post', 'deal', 'D-1', '{}')).toBe(true);
    expect(r.stats().entries).toBe(odd.length + 1);
    r.close();
  });

  test('close folds a journal that grew to an eighth of the snapshot, and leaves a smaller one to be replayed', () => {
    const d = dir();
    const s = openStateStore(d);
    for (let i = 0; i < 800; i++) s.accepted('post', 'deal', `D-${i}`, `{"i":${i}}`);
    s.close();
    const snapshot = readFileSync(join(d, SNAPSHOT_FILE), 'utf8');
    expect(statSync(join(d, JOURNAL_FILE)).size).toBe(0);
    // 50 of 800 changed: the journal (about 1/16 of the snapshot) stays, the snapshot is not rewritten
    const small = openStateStore(d);
    for (let i = 0; i < 50; i++) small.accepted('post', 'deal', `D-${i}`, `{"i":${i},"v":2}`);
    small.close();
    expect(readFileSync(join(d, SNAPSHOT_FILE), 'utf8')).toBe(snapshot);
    expect(readFileSync(join(d, JOURNAL_FILE), 'utf8').split('\n')).toHaveLength(51);
    const replayed = openStateStore(d, { readOnly: true });
    expect(replayed.unchanged('post', 'deal', 'D-0', '{"i":0,"v":2}')).toBe(true);
    expect(replayed.unchanged('post', 'deal', 'D-0', '{"i":0}')).toBe(false);
    // 60 more: 110 lines of the journal are over an eighth of the snapshot, which is rewritten
    const more = openStateStore(d);
    for (let i = 50; i < 110; i++) more.accepted('post', 'deal', `D-${i}`, `{"i":${i},"v":2}`);
    more.close();
    expect(statSync(join(d, JOURNAL_FILE)).size).toBe(0);
    const folded = openStateStore(d, { readOnly: true });
    expect(folded.unchanged('post', 'deal', 'D-0', '{"i":0,"v":2}')).toBe(true);
    expect(folded.unchanged('post', 'deal', 'D-109', '{"i":109,"v":2}')).toBe(true);
    expect(folded.stats().entries).toBe(800);
  });

  test('a torn last journal line is ignored, cut off, and the next append starts cleanly', async () => {
    const d = dir();
    const s = openStateStore(d);
    s.accepted('post', 'deal', 'D-1', '{"v":1}');
    await tick();
    appendFileSync(join(d, JOURNAL_FILE), 'post\tdeal\tD-2\t0123');
    const r = openStateStore(d);
    expect(r.notes.join()).toMatch(/incomplete last line/);
    expect(r.unchanged('post', 'deal', 'D-1', '{"v":1}')).toBe(true);
    r.accepted('post', 'deal', 'D-3', '{"v":3}');
    await tick();
    expect(
      readFileSync(join(d, JOURNAL_FILE), 'utf8')
        .split('\n')
        .filter(Boolean)
        .every((l) => /\t[0-9a-f]{16}$/.test(l)),
    ).toBe(true);
    r.close();
    s.close();
  });

  test('a torn last line holding half a UTF-8 character is cut off at its exact byte', async () => {
    const d = dir();
    const s = openStateStore(d);
    s.accepted('post', 'deal', 'Dé-1', '{"v":1}');
    await tick();
    await s.durable();
    const journal = join(d, JOURNAL_FILE);
    const whole = readFileSync(journal);
    // the write was cut inside "é" (0xc3 0xa9): the file ends in a byte that is not UTF-8 on its own
    appendFileSync(journal, Buffer.concat([Buffer.from('post\tdeal\tDé-2\t'), Buffer.from([0xc3])]));
    const r = openStateStore(d);
    expect(r.notes.join()).toMatch(/incomplete last line/);
    expect(readFileSync(journal)).toEqual(whole);
    expect(r.unchanged('post', 'deal', 'Dé-1', '{"v":1}')).toBe(true);
    r.close();
    s.close();
  });

  test('the journal is compacted mid-run once it grows past the limit', async () => {
    const d = dir();
    const s = openStateStore(d, { compactBytes: 2000 });
    for (let i = 0; i < 200; i++) {
      s.accepted('post', 'deal', `D-${i}`, `{"i":${i}}`);
      if (i % 10 === 9) await tick();
    }
    expect(existsSync(join(d, SNAPSHOT_FILE))).toBe(true);
    expect(statSync(join(d, JOURNAL_FILE)).size).toBeLessThan(2000);
    const r = openStateStore(d, { readOnly: true });
    expect(r.stats().entries).toBe(200);
    s.close();
  });

  test('a snapshot that is not ours is refused with a clear error', () => {
    const d = dir();
    writeFileSync(join(d, SNAPSHOT_FILE), 'hello\n');
    expect(() => openStateStore(d)).toThrow(/not a state snapshot/);
  });

  test('a snapshot that is only its header, without a newline, opens empty', () => {
    const d = dir();
    writeFileSync(join(d, SNAPSHOT_FILE), SNAPSHOT_HEADER);
    const r = openStateStore(d, { readOnly: true });
    expect(r.stats().entries).toBe(0);
    expect(r.notes).toEqual([]);
  });

  test('a broken snapshot line is named by its line in the file, blank lines counted', () => {
    const d = dir();
    const s = openStateStore(d);
    s.accepted('post', 'deal', 'D-1', '{"v":1}');
    s.close();
    const path = join(d, SNAPSHOT_FILE);
    const lines = readFileSync(path, 'utf8').split('\n'); // header, section, D-1, ''
    expect(lines.slice(0, 3)).toEqual([SNAPSHOT_HEADER, '\tpost\tdeal', expect.stringMatching(/^D-1\t/)]);
    writeFileSync(path, [lines[0], '', lines[1], lines[2], '', 'not an entry', ''].join('\n'));
    expect(() => openStateStore(d, { readOnly: true })).toThrow(/line 6 is not an entry/);
  });
  test.each([
    ['journal only (killed before close)', false],
    ['snapshot (closed normally)', true],
  ])('an id with a lone surrogate is still unchanged after a reopen: %s', async (_, close) => {
    const d = dir();
    const s = openStateStore(d);
    const id = 'D-\ud800'; // JSON input "externalId": "D-\ud800" parses to this
    const json = JSON.stringify({ externalId: id, title: 't' });
    s.accepted('post', 'deal', id, json);
    await tick();
    await s.durable();
    if (close) s.close();
    const r = openStateStore(d, { readOnly: true });
    expect(r.unchanged('post', 'deal', id, json)).toBe(true);
  });

  test('two ids differing only in their lone surrogate keep separate hashes', async () => {
    const d = dir();
    const s = openStateStore(d);
    s.accepted('post', 'deal', 'X\ud800', '{"v":1}');
    s.accepted('post', 'deal', 'X\udc00', '{"v":2}');
    s.close();
    const r = openStateStore(d, { readOnly: true });
    expect(r.stats().entries).toBe(2);
  });

  describe('row fingerprints', () => {
    const fp = (n: number) => ({ hi: n, lo: n * 7 + 1 });

    test('sameRow is true only for the fingerprint recorded with the id, across reopen and compaction', async () => {
      const d = dir();
      const s = openStateStore(d);
      s.accepted('post', 'deal', 'D-1', '{"v":1}', [], fp(1));
      s.accepted('post', 'deal', 'D-2', '{"v":2}');
      expect(s.sameRow('post', 'deal', 'D-1', fp(1))).toBe(true);
      expect(s.sameRow('post', 'deal', 'D-1', fp(2))).toBe(false);
      expect(s.sameRow('post', 'deal', 'D-2', fp(1))).toBe(false); // accepted without one
      expect(s.sameRow('patch', 'deal', 'D-1', fp(1))).toBe(false);
      expect(s.sameRow('post', 'deal', 'D-9', fp(1))).toBe(false);
      await tick();
      expect(readFileSync(join(d, JOURNAL_FILE), 'utf8')).toMatch(/^post\tdeal\tD-1\t[0-9a-f]{16}\t0000000100000008\npost\tdeal\tD-2\t[0-9a-f]{16}\n$/);
      expect(openStateStore(d, { readOnly: true }).sameRow('post', 'deal', 'D-1', fp(1))).toBe(true);
      s.close();
      expect(readFileSync(join(d, SNAPSHOT_FILE), 'utf8')).toMatch(/\nD-1\t[0-9a-f]{16}\t0000000100000008\nD-2\t[0-9a-f]{16}\n$/);
      const r = openStateStore(d, { readOnly: true });
      expect(r.sameRow('post', 'deal', 'D-1', fp(1))).toBe(true);
      expect(r.unchanged('post', 'deal', 'D-1', '{"v":1}')).toBe(true);
    });

    test('an unchanged item learns the fingerprint of the row it now comes from, kept with its hash', async () => {
      const d = dir();
      const s = openStateStore(d);
      s.accepted('post', 'deal', 'D-1', '{"v":1}');
      expect(s.unchanged('post', 'deal', 'D-1', '{"v":1}')).toBe(true);
      s.learn('post', 'deal', 'D-1', fp(3));
      s.learn('post', 'deal', 'D-9', fp(4)); // no such id: nothing to learn
      expect(s.sameRow('post', 'deal', 'D-1', fp(3))).toBe(true);
      expect(s.sameRow('post', 'deal', 'D-9', fp(4))).toBe(false);
      await tick();
      const lines = readFileSync(join(d, JOURNAL_FILE), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(2);
      // the learned line keeps the item's hash
      expect(lines[1]).toBe(`${lines[0]}\t0000000300000016`);
      s.close();
      const r = openStateStore(d, { readOnly: true });
      expect(r.sameRow('post', 'deal', 'D-1', fp(3))).toBe(true);
      expect(r.unchanged('post', 'deal', 'D-1', '{"v":1}')).toBe(true);
      // a dry run only reads
      r.learn('post', 'deal', 'D-1', fp(5));
      expect(r.sameRow('post', 'deal', 'D-1', fp(5))).toBe(false);
    });

    test('an entry the other method forgot has no fingerprint any more', async () => {
      const d = dir();
      const s = openStateStore(d);
      s.accepted('post', 'deal', 'D-1', '{"v":1}', [], fp(1));
      s.accepted('patch', 'deal', 'D-1', '{"p":1}', ['post'], fp(2));
      expect(s.sameRow('post', 'deal', 'D-1', fp(1))).toBe(false);
      expect(s.sameRow('patch', 'deal', 'D-1', fp(2))).toBe(true);
      s.close();
      expect(openStateStore(d, { readOnly: true }).sameRow('post', 'deal', 'D-1', fp(1))).toBe(false);
    });

    test('the set for the read worker holds every recorded fingerprint, and no other', () => {
      const d = dir();
      const s = openStateStore(d);
      for (let i = 1; i <= 5000; i++) s.accepted('post', 'deal', `D-${i}`, `{"i":${i}}`, [], { hi: i, lo: Math.imul(i, 2654435761) >>> 0 });
      expect(s.fingerprints('post', 'account')).toBeUndefined();
      const set = new FingerprintSet(s.fingerprints('post', 'deal')!);
      for (let i = 1; i <= 5000; i++) expect(set.has({ hi: i, lo: Math.imul(i, 2654435761) >>> 0 })).toBe(true);
      let false_ = 0;
      for (let i = 5001; i <= 105_000; i++) if (set.has({ hi: i, lo: Math.imul(i, 2246822519) >>> 0 })) false_++;
      expect(false_).toBe(0);
      // one differing in a single word is not in it
      expect(set.has({ hi: 1, lo: 7 })).toBe(false);
      expect(set.has({ hi: 5001, lo: Math.imul(1, 2654435761) >>> 0 })).toBe(false);
      s.close();
    });

    test('a version 1 state is read (entries without fingerprints) and written back as version 2', () => {
      const d = dir();
      writeFileSync(join(d, SNAPSHOT_FILE), 'batch-sync-state 1\n\tpost\tdeal\nD-1\t0123456789abcdef\n0123456789abcdef\tfedcba9876543210\n');
      writeFileSync(join(d, JOURNAL_FILE), 'post\tdeal\tD-2\t00000000000000ff\n');
      const s = openStateStore(d);
      expect(s.stats().entries).toBe(3);
      expect(s.sameRow('post', 'deal', 'D-1', { hi: 0x01234567, lo: 0x89abcdef })).toBe(false);
      s.accepted('post', 'deal', 'D-3', '{}', [], fp(1));
      s.close();
      const text = readFileSync(join(d, SNAPSHOT_FILE), 'utf8');
      expect(text).toBe(
        `batch-sync-state 2\n\tpost\tdeal\nD-1\t0123456789abcdef\n0123456789abcdef\tfedcba9876543210\nD-2\t00000000000000ff\nD-3\t${text.match(/D-3\t([0-9a-f]{16})/)![1]}\t0000000100000008\n`,
      );
    });

    test('a state is of this version before this version journals anything: an older one refuses it instead of misreading it', async () => {
      // new: the snapshot is written at open, so a run killed before its close leaves no bare journal
      const fresh = dir();
      const s = openStateStore(fresh);
      expect(readFileSync(join(fresh, SNAPSHOT_FILE), 'utf8')).toBe('batch-sync-state 2\n');
      s.accepted('post', 'deal', 'D-1', '{}', [], fp(1));
      await tick();
      expect(readFileSync(join(fresh, JOURNAL_FILE), 'utf8')).toMatch(/\t[0-9a-f]{16}\t[0-9a-f]{16}\n$/);
      // version 1, with a journal a version 1 run left: rewritten at open, journal folded in
      const old = dir();
      writeFileSync(join(old, SNAPSHOT_FILE), 'batch-sync-state 1\n\tpost\tdeal\nD-1\t0123456789abcdef\n');
      writeFileSync(join(old, JOURNAL_FILE), 'post\tdeal\tD-2\t00000000000000ff\n');
      const upgraded = openStateStore(old);
      expect(readFileSync(join(old, SNAPSHOT_FILE), 'utf8')).toBe('batch-sync-state 2\n\tpost\tdeal\nD-1\t0123456789abcdef\nD-2\t00000000000000ff\n');
      expect(statSync(join(old, JOURNAL_FILE)).size).toBe(0);
      upgraded.close();
      // a dry run reads a version 1 state and writes nothing
      const ro = dir();
      writeFileSync(join(ro, SNAPSHOT_FILE), 'batch-sync-state 1\n\tpost\tdeal\nD-1\t0123456789abcdef\n');
      expect(openStateStore(ro, { readOnly: true }).stats().entries).toBe(1);
      expect(readFileSync(join(ro, SNAPSHOT_FILE), 'utf8')).toMatch(/^batch-sync-state 1\n/);
      s.close();
    });

    test('a snapshot from a newer version is refused, saying so', () => {
      const d = dir();
      writeFileSync(join(d, SNAPSHOT_FILE), 'batch-sync-state 3\n');
      expect(() => openStateStore(d)).toThrow(/written by a newer batch-sync \("batch-sync-state 3"; this version reads "batch-sync-state 2" and older\)/);
    });
  });
});

test('whatever the ids, a reopened state knows the last item accepted for each: from the journal, the snapshot, or both', () => {
  const id = fc.oneof(
    fc.string({ minLength: 1 }),
    fc.string({ unit: 'binary', minLength: 1 }),
    fc.constantFrom('D-1', 'D-2', 'ünï', '"q"', 'tab\there', '\ud800', 'X\udc00', '😀', 'back\\slash', ' '),
  );
  fc.assert(
    fc.property(fc.array(fc.tuple(id, fc.nat(3)), { minLength: 1, maxLength: 60 }), fc.nat(60), fc.boolean(), (accepted, closeAfter, closeAtEnd) => {
      const d = dir();
      const last = new Map<string, string>();
      let s = openStateStore(d);
      accepted.forEach(([externalId, v], i) => {
        if (i === closeAfter) {
          s.close(); // the first part goes to the snapshot, the rest stays in the journal
          s = openStateStore(d);
        }
        const json = JSON.stringify({ externalId, v });
        s.accepted('post', 'deal', externalId, json);
        last.set(externalId, json);
      });
      if (closeAtEnd) s.close();
      else s.flush();
      const r = openStateStore(d, { readOnly: true });
      expect(r.stats().entries).toBe(last.size);
      for (const [externalId, json] of last) {
        expect(r.unchanged('post', 'deal', externalId, json)).toBe(true);
        expect(r.unchanged('post', 'deal', externalId, `${json} `)).toBe(false);
      }
      if (!closeAtEnd) s.close();
    }),
    { numRuns: 80 },
  );
});
