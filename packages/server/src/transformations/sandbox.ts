import type { ClaimValue } from '@idsvc/shared';
import { z } from 'zod';
import { type FailureKind, SandboxHost, type SandboxLimits } from './sandbox-host.js';

export type { FailureKind, SandboxLimits } from './sandbox-host.js';

/**
 * The script of a claim transformation of type Script.
 *
 * Contract: the script defines a function
 *
 *     function transform(claims, context) { return claims; }
 *
 * `claims` is the claim list `[{ type, value }]` (strings); `context` describes the call (the runtime passes
 * `{ registeredUser, transformationName, cultureCode }`). Both are frozen: build and return a new array. The result
 * must be an array of `{ type: string, value: string }` (a non-empty type); other fields of its items are dropped.
 * `transform` runs synchronously (a returned promise is not awaited).
 *
 * The script runs in QuickJS (standard JavaScript only: no `process`, no `require`, no timers, no network, no
 * file system) in a fresh context per run, within a time limit (100 ms), a memory limit (16 MiB) and a stack limit
 * (256 KiB). Results are copied out as JSON. (The same contract, for people: `scriptContract` of @idsvc/shared.)
 *
 * Runs happen one at a time on a worker thread (sandbox-host.ts), so a script never blocks the server's event loop,
 * and a script stuck in a costly native call, which QuickJS's interrupt handler cannot break into, is stopped with its
 * thread shortly after its time limit. How each limit is enforced: sandbox-worker.ts.
 */
export const defaultLimits: SandboxLimits = {
  timeMs: 100,
  memoryBytes: 16 * 1024 * 1024,
  stackBytes: 256 * 1024,
};

/** A script that did not compile, failed, overran a limit or returned something other than claims. */
export class ScriptError extends Error {
  readonly kind: FailureKind;
  /** Line in the script, where the engine tells it. */
  readonly line: number | null;

  constructor(kind: FailureKind, message: string, line: number | null = null) {
    super(message);
    this.name = 'ScriptError';
    this.kind = kind;
    this.line = line;
  }
}

export type CompileResult = { ok: true } | { ok: false; message: string; line: number | null };

/** The JSON-serialisable values a script's context may hold. */
export type ScriptContext = Readonly<Record<string, string | number | boolean | null>>;

let host: SandboxHost | undefined;
const sandbox = () => {
  host ??= new SandboxHost();
  return host;
};

/** Stops the sandbox's worker thread (a later call starts a new one). */
export async function stopSandbox(): Promise<void> {
  await host?.stop();
}

const withLine = (message: string, line: number | null) => (line === null ? message : `${message} at line ${line}`);

/**
 * Compiles the script without running it: `{ ok: true }`, or the compiler's message (`SyntaxError: …`) and line.
 */
export async function compileScript(script: string, limits: SandboxLimits = defaultLimits): Promise<CompileResult> {
  const outcome = await sandbox().request({ op: 'compile', script, limits });
  if (outcome.ok) return { ok: true };
  const message = outcome.kind === 'syntax' ? `${outcome.name}: ${outcome.message}` : outcome.message;
  return { ok: false, message, line: outcome.line };
}

const ScriptResult = z.array(z.object({ type: z.string().min(1, 'must not be empty'), value: z.string() }));

function limitMessage(kind: FailureKind, message: string, limits: SandboxLimits): string {
  switch (kind) {
    case 'timeout':
      return `the script ran longer than ${limits.timeMs} ms and was stopped`;
    case 'memory':
      return `the script used more than ${limits.memoryBytes / (1024 * 1024)} MiB of memory and was stopped`;
    case 'stack':
      return `the script exceeded the stack limit of ${limits.stackBytes / 1024} KiB (too deep a recursion)`;
    default:
      return message;
  }
}

/**
 * Runs the script's `transform(claims, context)` in the sandbox and answers the claims it returns; throws a
 * ScriptError when it does not compile, throws, overruns a limit or returns something other than claims.
 */
export async function runScript(
  script: string,
  claims: readonly ClaimValue[],
  context: ScriptContext = {},
  limits: SandboxLimits = defaultLimits,
): Promise<ClaimValue[]> {
  const input = JSON.stringify({ claims: claims.map(({ type, value }) => ({ type, value })), context });
  const outcome = await sandbox().request({ op: 'run', script, input, limits });
  if (!outcome.ok) {
    const described =
      outcome.kind === 'syntax' || outcome.kind === 'runtime' ? `${outcome.name}: ${outcome.message}` : outcome.message;
    throw new ScriptError(
      outcome.kind,
      withLine(limitMessage(outcome.kind, described, limits), outcome.line),
      outcome.line,
    );
  }
  const parsed = ScriptResult.safeParse(JSON.parse(outcome.output ?? 'null'));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length > 0 ? `at ${issue.path.join('.')}: ` : '';
    throw new ScriptError(
      'result',
      `transform(claims, context) must return an array of { type, value } strings (${where}${issue.message})`,
    );
  }
  return parsed.data.map(({ type, value }) => ({ type, value }));
}
