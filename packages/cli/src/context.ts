import type { Command } from 'commander';
import type { Target } from './client/credentials.js';
import type { ApiClient, Trace } from './client/http.js';
import { cliEnv } from './env.js';
import { UsageError } from './errors.js';
import { paint } from './output/colors.js';
import { type Format, formats, type OutputOptions } from './output/options.js';
import { writeErr } from './output/write.js';

/** The global options (DESIGN 1.7), as every command sees them. */
export interface GlobalOptions {
  url?: string;
  token?: string;
  profile?: string;
  output: string;
  color: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** What a running command needs: output settings, messages on stderr, and the API client (loaded on first use). */
export class Context {
  readonly out: OutputOptions;
  /** True when -o was given (some commands pick a better default, e.g. CSV for export). */
  readonly outputGiven: boolean;
  private client?: Promise<ApiClient>;
  private resolved?: Target;

  constructor(
    readonly globals: GlobalOptions,
    outputGiven: boolean,
  ) {
    if (!(formats as readonly string[]).includes(globals.output)) {
      throw new UsageError(`-o must be one of ${formats.join(', ')}, not ${globals.output}`);
    }
    const env = cliEnv();
    const colorOn = (tty: boolean | undefined) => globals.color && !env.noColor && (tty === true || env.forceColor);
    this.outputGiven = outputGiven;
    this.out = {
      format: globals.output as Format,
      color: colorOn(process.stdout.isTTY),
      colorErr: colorOn(process.stderr.isTTY),
      quiet: globals.quiet === true,
      width: process.stdout.isTTY && process.stdout.columns ? process.stdout.columns : Number.POSITIVE_INFINITY,
    };
  }

  /** Colours for stderr messages. */
  get err() {
    return paint(this.out.colorErr);
  }

  /** An informational line on stderr (left out with --quiet). */
  info(message: string): void {
    if (!this.out.quiet) writeErr(message);
  }

  /** A warning on stderr (shown even with --quiet). */
  warn(message: string): void {
    writeErr(`${this.err.yellow('warning:')} ${message}`);
  }

  /** The request trace of --verbose. */
  get trace(): Trace | undefined {
    return this.globals.verbose ? (line) => writeErr(this.err.dim(line)) : undefined;
  }

  /** The server and credentials to use (resolved once). */
  async target(): Promise<Target> {
    if (!this.resolved) {
      const { resolveTarget } = await import('./client/credentials.js');
      this.resolved = resolveTarget(this.globals, this.trace);
    }
    return this.resolved;
  }

  /** The admin API client. */
  api(): Promise<ApiClient> {
    this.client ??= (async () => {
      const [{ ApiClient }, target] = await Promise.all([import('./client/http.js'), this.target()]);
      return new ApiClient(target.url, target.auth, this.trace);
    })();
    return this.client;
  }
}

/** The context of a command, from its options and the program's. */
export function contextOf(command: Command): Context {
  let root: Command = command;
  while (root.parent) root = root.parent;
  return new Context(command.optsWithGlobals() as GlobalOptions, root.getOptionValueSource('output') === 'cli');
}

/** True when people are at the keyboard: stdin and stdout are terminals (prompts are allowed only then). */
export function interactive(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}
