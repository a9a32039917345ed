import { CommanderError } from 'commander';
import { ApiCallError, CliError, type ExitCode, exitCodes } from './errors.js';
import { paint } from './output/colors.js';
import { writeErr } from './output/write.js';

/** Prints an error as one line (plus the server's details, one per line) and returns its exit code. */
export function reportError(error: unknown, color: boolean): ExitCode {
  const c = paint(color);
  if (error instanceof CommanderError) {
    // commander printed its message already
    return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
  }
  if (error instanceof ApiCallError) {
    writeErr(`${c.red('error:')} ${error.status} ${error.code}: ${error.message}`);
  } else if (error instanceof CliError) {
    writeErr(`${c.red('error:')} ${error.message}`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    writeErr(`${c.red('error:')} ${message}`);
    if (error instanceof Error && error.stack && process.argv.includes('--verbose')) writeErr(c.dim(error.stack));
    return exitCodes.failure;
  }
  const details = error.details.slice(0, 50);
  for (const detail of details) writeErr(`  ${c.dim('-')} ${detail}`);
  if (error.details.length > details.length)
    writeErr(`  ${c.dim(`… and ${error.details.length - details.length} more`)}`);
  if (error instanceof ApiCallError && error.requestId) writeErr(c.dim(`  request id ${error.requestId}`));
  return error.exitCode;
}
