/** Exit codes of DESIGN 1.7. */
export const exitCodes = {
  ok: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  conflict: 4,
  auth: 5,
  invalid: 6,
  partial: 7,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** The exit code of an HTTP status: 404 → 3, 409 → 4, 401/403 → 5, 400/413 (and other 4xx) → 6, else 1. */
export function exitCodeOfStatus(status: number): ExitCode {
  if (status >= 200 && status < 300) return exitCodes.ok;
  if (status === 404) return exitCodes.notFound;
  if (status === 409) return exitCodes.conflict;
  if (status === 401 || status === 403) return exitCodes.auth;
  if (status >= 400 && status < 500) return exitCodes.invalid;
  return exitCodes.failure;
}

/** A failure the CLI reports as one line (plus details) and ends with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = exitCodes.failure,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** A usage mistake: a missing argument, a bad flag value, a prompt needed without a terminal (exit 2). */
export class UsageError extends CliError {
  constructor(message: string, details: string[] = []) {
    super(message, exitCodes.usage, details);
    this.name = 'UsageError';
  }
}

/** An error answer of the admin API: `{error, message, details, requestId}` and its status. */
export class ApiCallError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly apiDetails: unknown[] = [],
    readonly requestId?: string,
  ) {
    super(message, exitCodeOfStatus(status), apiDetails.map(detailText));
    this.name = 'ApiCallError';
  }
}

/** One line for one item of an error's `details`: `field: message`, `[index] key: message` or its JSON. */
export function detailText(detail: unknown): string {
  if (detail === null || typeof detail !== 'object') return String(detail);
  const d = detail as Record<string, unknown>;
  const message = typeof d.message === 'string' ? d.message : typeof d.error === 'string' ? d.error : undefined;
  const where: string[] = [];
  if (typeof d.index === 'number') where.push(`[${d.index}]`);
  for (const key of ['field', 'userName', 'name', 'id', 'claimType', 'thumbprint']) {
    const value = d[key];
    if (typeof value === 'string' && value !== '') {
      where.push(value);
      break;
    }
  }
  if (message === undefined) return JSON.stringify(detail);
  return where.length ? `${where.join(' ')}: ${message}` : message;
}
