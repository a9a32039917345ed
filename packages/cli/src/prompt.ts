import { interactive } from './context.js';
import { CliError, exitCodes, UsageError } from './errors.js';

const onStderr = { output: process.stderr };

function cancelled(error: unknown): never {
  if (error instanceof Error && error.name === 'ExitPromptError') throw new CliError('cancelled', exitCodes.failure);
  throw error;
}

/**
 * A missing value: asked for on a terminal, otherwise a usage error at once (exit 2) naming the flag, so that
 * nothing waits for input that will never come.
 */
export async function askFor(flag: string, message: string, options: { secret?: boolean } = {}): Promise<string> {
  if (!interactive()) throw new UsageError(`${flag} is required (no terminal to ask on)`);
  const prompts = await import('@inquirer/prompts');
  const validate = (value: string) => value.trim() !== '' || 'a value is required';
  try {
    return options.secret
      ? await prompts.password({ message, mask: '*', validate }, onStderr)
      : await prompts.input({ message, validate }, onStderr);
  } catch (error) {
    return cancelled(error);
  }
}

/** A yes/no question; without a terminal, a usage error telling to pass `yesFlag`. */
export async function confirm(message: string, yesFlag = '--yes'): Promise<boolean> {
  if (!interactive()) throw new UsageError(`${yesFlag} is required to do this without a terminal`);
  const prompts = await import('@inquirer/prompts');
  try {
    return await prompts.confirm({ message, default: false }, onStderr);
  } catch (error) {
    return cancelled(error);
  }
}
