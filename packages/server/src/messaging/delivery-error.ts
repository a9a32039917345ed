/** A message (e-mail or SMS) that could not be handed over; the message says why, for a person. */
export class DeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DeliveryError';
  }
}

/** The reason of a failure, without stack: the error's message (and its cause's), cut to one line. */
export function reasonOf(error: unknown): string {
  let text = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.cause instanceof Error && !text.includes(error.cause.message)) {
    text = `${text}: ${error.cause.message}`;
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 500) || 'unknown error';
}
