#!/usr/bin/env node
// Starts fast: only commander and the catalog's plain data load here; each command loads what it needs.
import { cliEnv } from './env.js';
import { buildProgram } from './program.js';
import { reportError } from './report-error.js';
import { runShutdownHooks } from './shutdown.js';

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // `idsvc users list | head`: the reader went away, which is not a failure
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const program = buildProgram();
try {
  await program.parseAsync(process.argv);
} catch (error) {
  const color = !process.argv.includes('--no-color') && !cliEnv().noColor && process.stderr.isTTY === true;
  process.exitCode = reportError(error, color);
} finally {
  await runShutdownHooks();
}
