import { Command } from 'commander';
import { contextOf } from '../../context.js';
import { UsageError } from '../../errors.js';

interface ImportFlags {
  batchSize: string;
  concurrency: string;
  updateExisting?: boolean;
  dryRun?: boolean;
  errors?: string;
  resume?: boolean;
  sendPasswordEmail?: boolean;
}

function count(flag: string, value: string, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${flag} must be a whole number from 1 to ${max}`);
  return n;
}

/** `users import FILE.csv`: batched, resumable CSV import (see the help text). */
export function usersImportCommand(): Command {
  return new Command('import')
    .description('import users from a CSV file (- for stdin), in batches')
    .argument('<file>', 'CSV file with a header line, or - for stdin')
    .option('--batch-size <n>', 'rows per Users_PostMassUser call, each all or nothing', '500')
    .option('--concurrency <n>', 'batches in flight at once', '2')
    .option('--update-existing', 'update users whose userName exists (Users_PutMassUser) instead of failing')
    .option('--resume', 'skip rows whose userName exists already, so a failed run can be run again safely')
    .option('--dry-run', 'check every row, locally and against the server, and print the plan; write nothing')
    .option('--errors <file>', 'write the failed rows (row number, reason, the row as it was) to this CSV')
    .option('--send-password-email', 'mail each created user a link to set a password')
    .addHelpText(
      'after',
      `
Columns (header line; any order, only userName required):
  userName, email, displayName, password, organization, groups (;-separated), active (true/false),
  phoneNumber, claim:<claimType> (one column per claim type; several values ;-separated),
  passwordHash (instead of password, for users migrated from another system: a PHC string of argon2id or
  argon2i, bcrypt $2a$/$2b$, or pbkdf2-sha256 $pbkdf2-sha256$i=N$salt$hash; verified at sign-in and rehashed
  to argon2id on the first successful one). A literal ; or \\ in a list is written \\; or \\\\.
  Columns row and reason (of an --errors file) are ignored, so a fixed errors file imports as is.

Rows go in batches of --batch-size; a batch is all or nothing: a row that is invalid (checked locally with the
API's rules, including userNames and e-mails repeated in the file) or refused by the server fails its batch,
and the other batches go on. Row numbers count the header as row 1. --resume skips rows whose userName exists
(imported by an earlier run), so after fixing the failed rows the same command can be run again.
Progress (rows/s) is shown on stderr on a terminal. The file is streamed: memory does not grow with it.

Exit codes: 0 every row imported (or skipped with --resume), 7 some rows failed, 6 a dry run found problems or
the header names claim types without a definition, 2 the header is wrong, 5 the credentials were refused.

Examples:
  idsvc users import people.csv --errors failed.csv
  idsvc users import people.csv --resume --errors failed.csv
  idsvc users export -o csv > all.csv && idsvc --url https://other users import all.csv`,
    )
    .action(async (file: string, flags: ImportFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const options = {
        batchSize: count('--batch-size', flags.batchSize, 10_000),
        concurrency: count('--concurrency', flags.concurrency, 16),
        updateExisting: flags.updateExisting === true,
        resume: flags.resume === true,
        dryRun: flags.dryRun === true,
        sendPasswordEmail: flags.sendPasswordEmail === true,
        errors: flags.errors,
      };
      const { importUsers } = await import('../../import/run.js');
      await importUsers(ctx, file, options);
    });
}
