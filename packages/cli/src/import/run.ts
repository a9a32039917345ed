import type { Context } from '../context.js';
import { CliError, exitCodes } from '../errors.js';
import { type BatchOptions, type BatchOutcome, type DryRunChecks, importBatch, type Row } from './batch.js';
import { ErrorsFile } from './errors-file.js';
import { type Column, parseHeader, rowToUser } from './format.js';
import { ExistenceCache, unknownClaimTypes } from './lookup.js';
import { Progress } from './progress.js';
import { openCsv } from './reader.js';
import { SeenIndex } from './seen.js';

export interface ImportOptions extends BatchOptions {
  batchSize: number;
  concurrency: number;
  errors?: string;
}

interface Totals {
  rows: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  failedBatches: number;
}

type Validator = (user: unknown) => string | undefined;

/** Local validation of one user with the API's own schema (UserInput of @idsvc/shared). */
async function validator(): Promise<Validator> {
  const { UserInput } = await import('@idsvc/shared');
  return (user) => {
    const parsed = UserInput.safeParse(user);
    if (parsed.success) return undefined;
    const issue = parsed.error.issues[0];
    return `${issue.path.join('.') || 'user'}: ${issue.message}`;
  };
}

function readRow(columns: readonly Column[], row: number, cells: string[], validate: Validator): Row {
  try {
    const user = rowToUser(columns, cells);
    const error = validate(user);
    return error ? { row, cells, user, error } : { row, cells, user };
  } catch (error) {
    return { row, cells, error: (error as Error).message };
  }
}

/** Marks the second and later rows with a userName or e-mail already in the file (case-insensitive). */
function markDuplicates(row: Row, names: SeenIndex, emails: SeenIndex): void {
  if (!row.user) return;
  const first = names.add(String(row.user.userName).toLowerCase(), row.row);
  if (first) {
    row.error ??= `duplicate userName ${String(row.user.userName)}: row ${first} has it too`;
    return;
  }
  if (typeof row.user.email === 'string') {
    const firstEmail = emails.add(row.user.email.toLowerCase(), row.row);
    if (firstEmail) row.error ??= `duplicate email ${row.user.email}: row ${firstEmail} has it too`;
  }
}

/**
 * `users import`: streams the CSV, validates each row, and sends batches (all or nothing each) with at most
 * `concurrency` in flight; a failed batch does not stop the others. Exit 7 when rows failed (dry run: 6).
 */
export async function importUsers(ctx: Context, file: string, options: ImportOptions): Promise<void> {
  const source = await openCsv(file);
  const columns = parseHeader(source.header);
  const api = await ctx.api();
  const claimTypes = columns.flatMap((c) => (c.kind === 'claim' ? [c.claimType] : []));
  const unknown = await unknownClaimTypes(api, claimTypes);
  if (unknown.length) {
    throw new CliError(
      `no claim definition for ${unknown.map((t) => `claim:${t}`).join(', ')}; nothing was imported`,
      exitCodes.invalid,
      ['create them first (idsvc claimdefinitions create, or idsvc apply)'],
    );
  }
  const validate = await validator();
  const checks: DryRunChecks | undefined = options.dryRun
    ? { organizations: new ExistenceCache(api, 'organizations'), groups: new ExistenceCache(api, 'groups') }
    : undefined;
  const errorsFile = options.errors ? new ErrorsFile(options.errors, source.header) : undefined;
  const progress = new Progress(
    process.stderr.isTTY === true && !ctx.out.quiet,
    source.totalBytes,
    options.dryRun ? 'checking' : 'importing',
  );
  const totals: Totals = { rows: 0, created: 0, updated: 0, skipped: 0, failed: 0, failedBatches: 0 };
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let fatal: unknown;
  let bytes = 0;

  const record = (outcome: BatchOutcome) => {
    totals.created += outcome.created;
    totals.updated += outcome.updated;
    totals.skipped += outcome.skipped;
    totals.failed += outcome.failed.length;
    if (outcome.failed.length) totals.failedBatches++;
    for (const { row, reason } of outcome.failed) {
      errorsFile?.add(row.row, reason, row.cells);
      if (!reason.startsWith('not imported') && failures.length < 20) failures.push(`row ${row.row}: ${reason}`);
    }
    progress.update(totals.created + totals.updated + totals.skipped + totals.failed, totals.failed, bytes);
  };
  // Outcomes are recorded in the file's order (the errors file too), whatever order the batches finish in.
  const finished = new Map<number, BatchOutcome | undefined>();
  let nextToRecord = 0;
  let submitted = 0;
  const deliver = (sequence: number, outcome: BatchOutcome | undefined) => {
    finished.set(sequence, outcome);
    while (finished.has(nextToRecord)) {
      const next = finished.get(nextToRecord);
      finished.delete(nextToRecord++);
      if (next) record(next);
    }
  };
  const submit = async (batch: Row[]) => {
    while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    const sequence = submitted++;
    const work = importBatch(api, batch, options, checks).then(
      (outcome) => deliver(sequence, outcome),
      (error: unknown) => {
        fatal ??= error;
        deliver(sequence, undefined);
      },
    );
    const tracked = work.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  };

  const names = new SeenIndex();
  const emails = new SeenIndex();
  let batch: Row[] = [];
  try {
    for await (const csvRow of source.rows) {
      if (fatal) break;
      bytes = csvRow.bytes;
      totals.rows++;
      const row = readRow(columns, csvRow.row, csvRow.cells, validate);
      markDuplicates(row, names, emails);
      batch.push(row);
      if (batch.length >= options.batchSize) {
        await submit(batch);
        batch = [];
      }
    }
    if (batch.length && !fatal) await submit(batch);
  } catch (error) {
    fatal ??= new CliError(
      `reading the CSV stopped at row ${totals.rows + 2}: ${(error as Error).message}`,
      exitCodes.invalid,
    );
  } finally {
    await Promise.all(inFlight);
    progress.stop();
    await errorsFile?.close();
  }
  report(ctx, options, totals, failures, progress.rate());
  if (fatal) throw fatal;
  if (totals.failed) {
    throw new CliError(
      options.dryRun
        ? `dry run: ${totals.failed} row(s) would not be imported`
        : `${totals.failed} row(s) in ${totals.failedBatches} batch(es) were not imported${options.errors ? `; see ${options.errors}` : ''}; fix them and run again with --resume`,
      options.dryRun ? exitCodes.invalid : exitCodes.partial,
    );
  }
}

function report(ctx: Context, options: ImportOptions, totals: Totals, failures: string[], rate: number): void {
  for (const line of failures) ctx.info(`  ${ctx.err.red('✗')} ${line}`);
  if (totals.failed > failures.length) ctx.info(`  … ${totals.failed - failures.length} more failed row(s)`);
  const n = (v: number) => v.toLocaleString('en-US');
  if (options.dryRun) {
    ctx.info(
      `dry run, nothing written: ${n(totals.rows)} rows: ${n(totals.created)} to create, ${n(totals.updated)} to update, ${n(totals.skipped)} to skip (imported already), ${n(totals.failed)} would fail`,
    );
    return;
  }
  ctx.info(
    `${totals.failed ? ctx.err.yellow('!') : ctx.err.green('✓')} ${n(totals.rows)} rows: ${n(totals.created)} created, ${n(totals.updated)} updated, ${n(totals.skipped)} skipped (imported already), ${n(totals.failed)} failed; ${n(Math.round(rate))} rows/s`,
  );
}
