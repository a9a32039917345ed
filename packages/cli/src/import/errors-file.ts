import { createWriteStream, type WriteStream } from 'node:fs';
import { stringify } from 'csv-stringify/sync';

/**
 * The --errors file: the failed rows as they were (so it can be fixed and imported again; import ignores the
 * `row` and `reason` columns), each with its row number and the reason. Mode 0600: rows may hold passwords.
 */
export class ErrorsFile {
  private readonly stream: WriteStream;

  constructor(path: string, header: readonly string[]) {
    this.stream = createWriteStream(path, { mode: 0o600 });
    this.stream.write(stringify([['row', 'reason', ...header]]));
  }

  add(row: number, reason: string, cells: readonly string[]): void {
    this.stream.write(stringify([[String(row), reason, ...cells]]));
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
  }
}
