import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP server standing for another party (a client's back-channel endpoint…) in tests. */
export interface HttpEndpoint {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Stops it, dropping the connections still open (answers held back by a test). */
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 (a free port) that reads each request's body and hands it to `answer`. */
export async function startHttpEndpoint(
  answer: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<HttpEndpoint> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
