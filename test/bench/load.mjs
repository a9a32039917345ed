// A closed-loop HTTP/1.1 load generator on raw keep-alive sockets: each connection sends a prebuilt request, waits
// for the whole answer, sends the next. Cheap per request, so that the machine's cores go to the server under test.
import net from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('0\r\n\r\n');

/** Builds a raw POST request with a form body. */
export function formRequest(host, path, form, headers = {}) {
  const body = new URLSearchParams(form).toString();
  const lines = [
    `POST ${path} HTTP/1.1`,
    `Host: ${host}`,
    'Content-Type: application/x-www-form-urlencoded',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Accept: application/json',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** The length of one complete response at the start of `buf`, or -1 when it is not complete yet. */
function responseLength(buf) {
  const headerEnd = buf.indexOf(HEADER_END);
  if (headerEnd < 0) return -1;
  const head = buf.toString('latin1', 0, headerEnd).toLowerCase();
  const match = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (match) {
    const total = headerEnd + 4 + Number(match[1]);
    return buf.length >= total ? total : -1;
  }
  if (head.includes('transfer-encoding: chunked')) {
    const end = buf.indexOf(CHUNKED_END, headerEnd + 4);
    return end < 0 ? -1 : end + CHUNKED_END.length;
  }
  return headerEnd + 4;
}

/**
 * Runs `connections` connections against host:port for `warmupMs` (not counted) then `durationMs`; returns the
 * completed 200 answers per second and the count of other answers. `makeRequest(i)` gives each request's bytes.
 */
export async function runLoad({
  host = '127.0.0.1',
  port,
  makeRequest,
  connections = 32,
  warmupMs = 1000,
  durationMs = 5000,
  check,
}) {
  let counting = false;
  let ok = 0;
  let failed = 0;
  let sent = 0;
  let firstFailure;
  const sockets = [];
  for (let i = 0; i < connections; i++) {
    const socket = net.connect(port, host);
    socket.setNoDelay(true);
    let buf = Buffer.alloc(0);
    const next = () => socket.write(makeRequest(sent++));
    socket.on('connect', next);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      for (;;) {
        const length = responseLength(buf);
        if (length < 0) break;
        const status = buf.toString('latin1', 9, 12);
        const good = status === '200' && (!check || check(buf.subarray(0, length)));
        if (counting) {
          if (good) ok++;
          else {
            failed++;
            firstFailure ??= buf.toString('utf8', 0, Math.min(length, 600));
          }
        }
        buf = buf.subarray(length);
        next();
      }
    });
    sockets.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, warmupMs));
  counting = true;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  counting = false;
  const seconds = (performance.now() - started) / 1000;
  for (const socket of sockets) socket.destroy();
  return { perSecond: ok / seconds, failed, firstFailure };
}
