import {
  CertificateFormatError,
  normaliseThumbprint,
  type ParsedCertificate,
  parseCertificate,
} from '../certificates/parse.js';
import { ApiError, type ApiErrorCode } from '../http/api-error.js';

/** A problem with one item of a request. */
export interface Problem {
  index: number;
  id: string;
  message: string;
}

/**
 * The error of a request: for a single-item operation the item's message as is; for a batch a summary, with every
 * failing item (index, key, code, message) in `details`.
 */
export function failure(code: ApiErrorCode, problems: Problem[], many: boolean, summary: string): ApiError {
  if (!many) return new ApiError(code, problems[0].message);
  const details = problems.map((p) => ({ index: p.index, id: p.id, error: code, message: p.message }));
  return new ApiError(code, `${summary}; nothing was changed`, details);
}

/** An uploaded certificate and its place in the request. */
export interface Upload {
  index: number;
  thumbprint: string;
  cert: ParsedCertificate;
}

/** Refuses a request that names one certificate twice: 409 naming the repeated items and the first ones. */
export function refuseRepeats<T extends { index: number; thumbprint: string }>(items: T[]): T[] {
  const first = new Map<string, number>();
  const problems: Problem[] = [];
  for (const item of items) {
    const earlier = first.get(item.thumbprint);
    if (earlier === undefined) first.set(item.thumbprint, item.index);
    else {
      const message = `the same certificate (${item.thumbprint}) as item ${earlier}`;
      problems.push({ index: item.index, id: item.thumbprint, message });
    }
  }
  if (problems.length > 0) throw failure('conflict', problems, true, 'the list holds a certificate more than once');
  return items;
}

/** Parses uploads (base64 DER or PEM): 400 naming every item that is not a certificate, 409 for one given twice. */
export function parseUploads(data: readonly string[], many: boolean): Upload[] {
  const problems: Problem[] = [];
  const items: Upload[] = [];
  for (const [index, text] of data.entries()) {
    try {
      const cert = parseCertificate(text);
      items.push({ index, thumbprint: cert.thumbprint, cert });
    } catch (error) {
      if (!(error instanceof CertificateFormatError)) throw error;
      problems.push({ index, id: `item ${index}`, message: `invalid certificate: ${error.message}` });
    }
  }
  if (problems.length > 0) {
    const summary = `${problems.length} of ${data.length} items are not valid certificates`;
    throw failure('invalid_request', problems, many, summary);
  }
  return refuseRepeats(items);
}

/** Thumbprints of a FromWindowStore request, normalised: 400 naming every item that is not one, 409 for repeats. */
export function thumbprintItems(list: readonly string[]): { index: number; thumbprint: string }[] {
  const invalid: Problem[] = [];
  const items: { index: number; thumbprint: string }[] = [];
  for (const [index, value] of list.entries()) {
    const thumbprint = normaliseThumbprint(value);
    if (thumbprint) items.push({ index, thumbprint });
    else {
      const message = `${JSON.stringify(value)} is not a thumbprint (40 hexadecimal digits)`;
      invalid.push({ index, id: value, message });
    }
  }
  if (invalid.length > 0) {
    throw failure('invalid_request', invalid, true, `${invalid.length} of ${list.length} items are not thumbprints`);
  }
  return refuseRepeats(items);
}
