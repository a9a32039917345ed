import type { Context } from '../context.js';
import { CliError, type ExitCode, exitCodes } from '../errors.js';
import { reportError } from '../report-error.js';

/**
 * Runs `fn` for each argument, going on after failures: each failure is reported as it happens; the run ends with
 * the failure's own exit code when everything failed alike, 7 when some succeeded.
 */
export async function forEachArgument(ctx: Context, args: readonly string[], fn: (arg: string) => Promise<void>) {
  const codes: ExitCode[] = [];
  for (const arg of args) {
    try {
      await fn(arg);
      codes.push(exitCodes.ok);
    } catch (error) {
      if (args.length === 1) throw error;
      codes.push(reportError(error, ctx.out.colorErr));
    }
  }
  const failed = codes.filter((c) => c !== exitCodes.ok);
  if (failed.length === 0) return;
  const code = failed.length === codes.length && new Set(failed).size === 1 ? failed[0] : exitCodes.partial;
  throw new SilentFailure(`${failed.length} of ${codes.length} failed`, code);
}

/** A failure already reported item by item: only the summary line is printed. */
export class SilentFailure extends CliError {}
