/**
 * A filter that cannot be parsed, or that cannot be applied to the attributes of a resource.
 * `position` is the 1-based character where the problem was found, when it is known.
 */
export class InvalidFilterError extends Error {
  readonly reason: string;
  readonly position: number | undefined;

  constructor(reason: string, position?: number) {
    super(position === undefined ? `Invalid filter: ${reason}` : `Invalid filter: ${reason} at position ${position}`);
    this.name = 'InvalidFilterError';
    this.reason = reason;
    this.position = position;
  }
}
