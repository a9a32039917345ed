import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../context.js';
import { runtimeDefaults } from './defaults.js';
import type { Grant } from './grants/grant.js';
import { TOKEN_PATH, tokenEndpoint } from './token-endpoint.js';

const requestIdPattern = /^[\w.:-]{1,128}$/;

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
    if (req.method !== 'POST' || req.url !== TOKEN_PATH || req.headers.origin !== undefined) return false;
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= runtimeDefaults.maxFormBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      const tooLarge = size > runtimeDefaults.maxFormBytes;
      endpoint({
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
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
