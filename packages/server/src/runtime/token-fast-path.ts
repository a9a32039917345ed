import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import { runtimeDefaults } from './defaults.js';
import type { Grant } from './grants/grant.js';
import { TOKEN_PATH, tokenEndpoint } from './token-endpoint.js';

const requestIdPattern = /^[\w.:-]{1,128}$/;

/** The request headers the token endpoint reads. */
interface TokenHeaders {
  origin?: string;
  requestId?: string;
  authorization?: string;
  contentType?: string;
}

/**
 * The four headers, read in one pass over the raw header list (node:http builds `req.headers` lazily; the token
 * path needs only these). As node:http does, the first Authorization and Content-Type count; a repeated
 * X-Request-Id is not used.
 */
export function tokenHeaders(raw: readonly string[]): TokenHeaders {
  const found: TokenHeaders = {};
  let requestIds = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    const value = raw[i + 1];
    if (name.length === 6 && name.toLowerCase() === 'origin') found.origin ??= value;
    else if (name.length === 12 && name.toLowerCase() === 'x-request-id') {
      found.requestId = requestIds++ === 0 ? value : undefined;
    } else if (name.length === 13 && name.toLowerCase() === 'authorization') found.authorization ??= value;
    else if (name.length === 12 && name.toLowerCase() === 'content-type') found.contentType ??= value;
  }
  return found;
}

/**
 * The token endpoint straight on node:http, for the requests that need nothing of the web framework: a POST to
 * the exact path without an Origin header (servers and pipelines; browsers' CORS requests go the framework's way).
 * The same steps as the framework's route (`tokenEndpoint`), without building web Request and Response objects —
 * the signature is most of a grant's cost, so the rest of the path must be nearly free. Returns false for any
 * other request, which the caller hands to the framework.
 */
export function tokenFastPath(
  ctx: AppContext,
  grants: Readonly<Record<string, Grant>> = {},
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const endpoint = tokenEndpoint(ctx, grants);
  return (req, res) => {
    if (req.method !== 'POST' || req.url !== TOKEN_PATH) return false;
    const headers = tokenHeaders(req.rawHeaders);
    if (headers.origin !== undefined) return false;
    const incoming = headers.requestId;
    const requestId = incoming !== undefined && requestIdPattern.test(incoming) ? incoming : randomUUID();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= runtimeDefaults.maxFormBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      const tooLarge = size > runtimeDefaults.maxFormBytes;
      endpoint({
        authorization: headers.authorization,
        contentType: headers.contentType,
        body: tooLarge ? '' : Buffer.concat(chunks).toString('utf8'),
        tooLarge,
        requestId,
      }).then(
        (answer) => {
          res.writeHead(answer.status, {
            ...answer.headers,
            'Content-Length': Buffer.byteLength(answer.body),
            'X-Request-Id': requestId,
          });
          res.end(answer.body);
        },
        (error: unknown) => {
          ctx.logger.error('token request failed', { requestId, error: String(error) });
          res.writeHead(500, { 'Content-Type': 'application/json; charset=UTF-8', 'X-Request-Id': requestId });
          res.end('{"error":"server_error","error_description":"the server could not complete the request"}');
        },
      );
    });
    req.on('error', () => res.destroy());
    return true;
  };
}
