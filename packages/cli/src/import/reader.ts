import { createReadStream, statSync } from 'node:fs';
import { parse } from 'csv-parse';
import { UsageError } from '../errors.js';

export interface CsvRow {
  /** The row's number in the file, the header being row 1. */
  row: number;
  cells: string[];
  /** Bytes of the file read so far (for progress). */
  bytes: number;
}

export interface CsvSource {
  header: string[];
  rows: AsyncIterable<CsvRow>;
  /** Size of the file; undefined for stdin. */
  totalBytes?: number;
}

interface ParsedRecord {
  record: string[];
  info: { bytes: number; records: number };
}

/** Streams a CSV file (`-` for stdin) row by row, so that memory does not grow with the file. */
export async function openCsv(file: string): Promise<CsvSource> {
  let totalBytes: number | undefined;
  if (file !== '-') {
    try {
      totalBytes = statSync(file).size;
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  } else if (process.stdin.isTTY) {
    throw new UsageError('reading CSV from stdin (-), but stdin is a terminal; pipe the file in');
  }
  const input = file === '-' ? process.stdin : createReadStream(file);
  const parser = input.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, max_record_size: 1 << 20 }),
  );
  input.on('error', (error: Error) => parser.destroy(error));
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<ParsedRecord>;
  const first = await iterator.next();
  if (first.done) throw new UsageError(`${file === '-' ? 'stdin' : file} is empty: it needs a header line`);
  const header = first.value.record;
  async function* rows(): AsyncGenerator<CsvRow> {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield { row: next.value.info.records, cells: next.value.record, bytes: next.value.info.bytes };
    }
  }
  return { header, rows: rows(), totalBytes };
}
