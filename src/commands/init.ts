// `batch-sync init <file> --resource <kind>`: reads the header and a sample, proposes a mapping
// profile (src/map/propose.ts), writes it, and says what was mapped and what the user must fill in.
// `batch-sync init a.csv b.csv`: the same for each file (its kind guessed from its header), plus a
// sync plan that runs them in dependency order, and a check that the deals' owners are among the
// sales profiles' proposed ids.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import type { Resource } from '../contract/resources.js';
import { UsageError } from '../errors.js';
import { proposeProfile } from '../map/propose.js';
import { checkOwnersAcrossFiles, type CrossFileCheck } from '../map/propose/cross-files.js';
import { inSendOrder } from '../plan/order.js';
import { profileBeside } from '../config/pair-profiles.js';
import { invocation } from '../config/environment.js';
import { shellWord } from '../util/shell-word.js';
import { DEFAULT_PLAN_FILE } from '../config/sync-plan.js';
import { readerFlags, resourceFlag } from '../config/input-flags.js';
import { INIT_OPTIONS } from '../config/init-options.js';
import { resolveOptions, type OptionValues } from '../config/option.js';
import type { ReaderOptions } from '../read/types.js';
import { addOptions, givenFlags } from './add-options.js';
import { NO_SCHEMA_NOTE, schemaRef } from './schema-ref.js';
import { decideKinds, leftOutLines, sampleFor, targetOf, type Proposed, type Sampled } from './init-sample.js';
import { tieFiles } from './init-cross.js';
import { checkedLines, ownerLines } from './init-checked.js';
import { verifyProposals } from '../run/verify-proposals.js';
import type { ProfileCheck } from '../rows/check-profile.js';
import type { Output } from '../report/output.js';
import { plural } from '../report/plural.js';
import { examples } from './examples.js';
import type { SetExit } from './set-exit.js';

type InitOptions = OptionValues<typeof INIT_OPTIONS>;

export function registerInit(program: Command, output: Output, _setExit: SetExit): void {
  const command = program
    .command('init')
    .description('propose a mapping profile for an export (several exports: a profile each and a sync plan that ties them)')
    .argument('<file...>', "the CSV or .xlsx export(s) to map; with several, FILE:KIND names a file's kind when its header does not tell")
    .addHelpText(
      'after',
      examples(
        ['batch-sync init fixtures/es-vendedores/vendedores.csv fixtures/es-vendedores/ventas.csv', 'a profile each, and a plan that ties them'],
        ['batch-sync init fixtures/canonical/deals.csv --resource deal --out deals.profile.json'],
        ['batch-sync init fixtures/canonical/accounts.csv fixtures/canonical/activities.csv:activity --plan canonical.config.json', 'FILE:KIND names a kind'],
      ),
    );
  addOptions(command, INIT_OPTIONS).action(async (args: string[], _flags: unknown, self: Command) => {
    const given = givenFlags(self, INIT_OPTIONS);
    const opts = resolveOptions(INIT_OPTIONS, given, {});
    const context = { output, opts, reader: readerFlags(given), resource: resourceFlag(opts.resource) };
    // one file with --resource: its profile alone, as before; else a run of files tied by a plan
    if (args.length === 1 && context.resource) await initOne(args[0]!, { ...context, resource: context.resource });
    else await initMany(args, context);
  });
}

interface InitContext {
  output: Output;
  opts: InitOptions;
  reader: ReaderOptions | undefined;
  resource: Resource | undefined;
}

async function initOne(file: string, { output, opts, reader, resource }: InitContext & { resource: Resource }): Promise<void> {
  if (opts.plan !== undefined) throw new UsageError('--plan is for init of several files');
  const out = opts.out ?? profileBeside(file);
  refuseOverInput(file, out);
  const one = proposeFor({ ...(await sampleFor({ file, resource }, opts.sample, reader)), resource }, out, opts);
  const checks = await verify([one], { output, opts, reader });
  await writeProfile(one, opts.force);
  printProposal(one, output, false);
  const check = checks?.get(one);
  if (check) output.out(`\n${checkedLines(check).join('\n')}`);
  if (schemaRef('profile', one.out) === undefined) output.out(`\n${NO_SCHEMA_NOTE}`);
  output.out(`\nnext${one.proposal.fillIn.length ? ' (after filling in)' : ''}: ${invocation()} validate ${shellWord(file)} --profile ${shellWord(one.out)}`);
}

/** Several files, each with its kind and profile path, refused before anything is read when two collide. */
function targetsOf(args: readonly string[], resource: Resource | undefined) {
  const targets = args.map((arg) => targetOf(arg, resource));
  const seen = new Set<string>();
  const profileOf = new Map<string, string>();
  for (const t of targets) {
    if (seen.has(resolve(t.file))) throw new UsageError(`${t.file} is named twice`);
    seen.add(resolve(t.file));
    // deals.csv and deals.json beside each other both map to deals.profile.json
    const profile = resolve(profileBeside(t.file));
    const other = profileOf.get(profile);
    if (other !== undefined)
      throw new UsageError(`${other} and ${t.file} would both write ${profileBeside(t.file)}`, { suggestion: 'run init on one of them alone, with --out' });
    profileOf.set(profile, t.file);
  }
  return targets;
}

async function initMany(args: readonly string[], { output, opts, reader, resource }: InitContext): Promise<void> {
  if (opts.out !== undefined)
    throw new UsageError(
      args.length === 1
        ? '--out names the profile of one file of a known kind: give --resource too'
        : '--out names one profile; with several files each profile is written beside its file',
      { suggestion: args.length === 1 ? `batch-sync init ${args[0]} --resource <kind> --out …` : 'drop --out, or run init on each file alone' },
    );
  const targets = targetsOf(args, resource);
  const planPath = opts.plan ?? join(dirname(targets[0]!.file), DEFAULT_PLAN_FILE);
  // everything is read and decided before anything is written: a file init cannot place leaves no half-done set
  const sampled: Sampled[] = [];
  for (const t of targets) {
    if (t.skip) continue;
    refuseOverInput(t.file, profileBeside(t.file));
    sampled.push(await sampleFor(t, opts.sample, reader));
  }
  const { files: kept, leftOut } = decideKinds(
    sampled,
    targets.filter((t) => t.skip),
  );
  const all = kept.map((s) => proposeFor(s, profileBeside(s.file), opts));
  const tied = tieFiles(all, kept);
  all.push(...tied.derived);
  const owner = tied.ownerCsv;
  if (!opts.force) {
    for (const path of [...all.map((p) => p.out), planPath, ...(owner ? [owner.path] : [])]) {
      if (existsSync(path)) throw new UsageError(`${path} already exists`, { suggestion: 'use --force to overwrite it' });
    }
  }
  // the owner's one row is read by the check (the sales-profile job, the others' lookups)
  if (owner) await writeFile(owner.path, owner.text, { flag: opts.force ? 'w' : 'wx' });
  const checks = await verify(all, { output, opts, reader });
  const ordered = inSendOrder(all);
  for (const p of ordered) {
    await writeProfile(p, opts.force);
    printProposal(p, output, true);
    output.out('');
  }
  await writePlan(planPath, ordered, opts.force);
  output.out(`wrote ${planPath}: ${ordered.map((p) => `${p.resource} ${p.file}`).join(', then ')}`);
  for (const line of leftOutLines(leftOut)) output.out(line);
  if ([planPath, ...ordered.map((p) => p.out)].some((f) => schemaRef('profile', f) === undefined)) output.out(NO_SCHEMA_NOTE);
  // a lookup the check took out (its key repeats) is said under its file's "check:", not proposed here
  const dropped = ordered.filter((p) => checks?.get(p)?.lookupsFailed.length).map((p) => `${basename(p.file)}: `);
  const across = tied.notes.filter((n) => !(n.includes('is looked up there') && dropped.some((d) => n.startsWith(d))));
  if (across.length) output.out(`\nacross files:\n${across.map((n) => `  - ${n}`).join('\n')}`);
  const owners = checks && ownerLines(ordered.map((p) => ({ ...p, check: checks.get(p)! })));
  output.out(
    owners?.join('\n') ??
      ownersLine(
        checkOwnersAcrossFiles(
          ordered.map((p) => ({ file: basename(p.file), resource: p.resource, profile: p.proposal.profile, rows: p.rows, complete: p.complete })),
        ),
      ),
  );
  if (checks) {
    output.out('\nchecked, each profile as written on its file:');
    for (const p of ordered) output.out(`  ${p.out}: ${checkedLines(checks.get(p)!).join('\n  ')}`);
  }
  // the owner is asked in its file's row, every other placeholder in a profile
  const fillIn = ordered.flatMap((p) => p.proposal.fillIn.map((f) => `  ${p.file === owner?.path ? p.file : p.out}: ${f.path}: ${f.reason}`));
  if (fillIn.length) {
    output.out(`\n${output.color.yellow('fill in before use')} (the profiles are refused until then):`);
    for (const line of fillIn) output.out(line);
  }
  output.out(
    `\nnext${fillIn.length ? ' (after filling in)' : ''}: ${invocation()} push --config ${shellWord(planPath)}   (try it on the embedded sandbox first: add --sandbox)`,
  );
}

function proposeFor(sampled: Sampled & { resource: Resource }, out: string, opts: InitOptions): Proposed {
  const { file, resource, guessed, header, rows, complete, reader, headerAt, warnings } = sampled;
  const proposal = proposeProfile({ resource, method: opts.method, header, rows, reader, file: basename(file) });
  proposal.notes.unshift(...(sampled.notes ?? []));
  return { file, out, resource, guessed, proposal, rows, complete, header, headerAt, warnings };
}

/** The proposals tried on the data and revised (run/verify-proposals.ts), with a progress line on a terminal; undefined with --check-time 0. */
async function verify(all: readonly Proposed[], { output, opts, reader }: Pick<InitContext, 'output' | 'opts' | 'reader'>) {
  if (opts.checkTime === 0) return undefined;
  const stream = output.stderrIsTTY ? output.stderrStream : undefined;
  let shown = 0;
  const checks: Map<Proposed, ProfileCheck> = await verifyProposals(all, {
    method: opts.method,
    reader,
    budgetMs: opts.checkTime * 1000,
    onProgress: (file, rows) => {
      if (!stream || Date.now() - shown < 200) return;
      shown = Date.now();
      stream.write(`\rchecking the proposal on ${basename(file)}: ${rows.toLocaleString('en-US')} rows\x1b[K`);
    },
  });
  if (stream && shown) stream.write('\r\x1b[K');
  return checks;
}

function refuseOverInput(file: string, out: string): void {
  if (resolve(out) === resolve(file))
    throw new UsageError(`refusing to write the profile over the export it reads: ${out}`, { suggestion: 'pass another --out' });
}

async function writeProfile(p: Proposed, force: boolean | undefined): Promise<void> {
  try {
    const ref = schemaRef('profile', p.out);
    const profile = { ...(ref === undefined ? {} : { $schema: ref }), ...p.proposal.profile };
    await writeFile(p.out, `${JSON.stringify(profile, null, 2)}\n`, { flag: force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UsageError(`${p.out} already exists`, { suggestion: 'use --force to overwrite it, or --out to write elsewhere' });
    }
    throw error;
  }
}

async function writePlan(path: string, jobs: readonly Proposed[], force: boolean | undefined): Promise<void> {
  const dir = dirname(resolve(path));
  // paths in a plan are relative to it, with forward slashes so the plan works on every system
  const rel = (p: string) => relative(dir, resolve(p)).split(sep).join('/');
  const ref = schemaRef('plan', path);
  const plan = { ...(ref === undefined ? {} : { $schema: ref }), jobs: jobs.map((p) => ({ file: rel(p.file), resource: p.resource, profile: rel(p.out) })) };
  try {
    await writeFile(path, `${JSON.stringify(plan, null, 2)}\n`, { flag: force ? 'w' : 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new UsageError(`${path} already exists`, { suggestion: 'use --force to overwrite it, or --plan to write elsewhere' });
    throw error;
  }
}

function printProposal(p: Proposed, output: Output, many: boolean): void {
  const c = output.color;
  const { proposal, rows, file, resource } = p;
  if (many) output.out(c.bold(`${file}: ${resource}${p.guessed ? ` (${p.guessed})` : ''}`));
  const header = p.headerAt ? `; header on ${p.headerAt}` : '';
  const sampled = p.complete ? `all ${plural(rows.length, 'row')}` : `the first ${plural(rows.length, 'row')}`;
  // the owner's file is init's own: its one row is for the user to fill in
  const from = p.asked && !rows.length ? `reading the row you fill in in ${file}` : `proposed from ${sampled} of ${file}${header}`;
  output.out(`wrote ${p.out} (${resource}, ${from})`);
  if (p.warnings.length) {
    output.out(`\n${c.yellow('read with warnings')}:`);
    for (const w of p.warnings) output.out(`  ${w.file}${w.line === undefined ? '' : `:${w.line}`}  ${w.message}`);
  }
  output.out('\nmapped:');
  for (const m of proposal.mapped) output.out(`  ${m.field.padEnd(28)} ← ${m.source}`);
  if (proposal.customFields.length) {
    output.out('\ncustom fields (columns no API field matched):');
    for (const f of proposal.customFields) output.out(`  ${f.key.padEnd(28)} ← "${f.column}" (${f.type})`);
  }
  if (proposal.notes.length) {
    output.out('\ncheck:');
    for (const n of proposal.notes) output.out(`  - ${n}`);
  }
  if (!many && proposal.fillIn.length) {
    output.out(`\n${c.yellow('fill in before use')} (the profile is refused until then):`);
    for (const f of proposal.fillIn) output.out(`  ${f.path}: ${f.reason}`);
  }
}

const MAX_EXAMPLES = 5;

function ownersLine(check: CrossFileCheck): string {
  if (check.kind === 'no-profiles') return "owners: no sales-profile file among them: the deals' owners and agents must already exist on the server";
  if (check.kind === 'cannot') return `owners: not checked: ${check.reason}`;
  if (!check.checks.length) return 'owners: no deal or activity file among them: nothing refers to sales profiles';
  return check.checks
    .map((k) => {
      const against = k.against.join(', ');
      if (!k.missing.length)
        return k.distinct === 1
          ? `owners: the 1 distinct owner/agent id in the sample of ${k.file} is among the ids proposed for ${against}`
          : `owners: all ${k.distinct} distinct owner/agent ids in the sample of ${k.file} are among the ids proposed for ${against}`;
      const examples =
        k.missing
          .slice(0, MAX_EXAMPLES)
          .map((m) => `"${m}"`)
          .join(', ') + (k.missing.length > MAX_EXAMPLES ? ', …' : '');
      const partial = k.wholeProfiles ? '' : ` (only a sample of ${against} was read: validate --config checks every row)`;
      const are = k.missing.length === 1 ? 'is' : 'are';
      return `owners: ${k.missing.length} of ${plural(k.distinct, 'distinct owner/agent id')} in the sample of ${k.file} ${are} not among the ids proposed for ${against}: ${examples}${partial}; check how each profile derives them, or they must already exist on the server`;
    })
    .join('\n');
}
