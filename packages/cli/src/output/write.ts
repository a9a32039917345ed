/** Writes to stdout and waits until the stream takes more (back-pressure for long outputs). */
export function writeOut(text: string): Promise<void> {
  if (text === '') return Promise.resolve();
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', () => resolve());
  });
}

/** Writes one line on stderr. */
export function writeErr(line: string): void {
  process.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
}
