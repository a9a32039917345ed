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

const CONTENT_LENGTH = [Buffer.from('\r\nContent-Length: '), Buffer.from('\r\ncontent-length: ')];
const CHUNKED = [Buffer.from('\r\nTransfer-Encoding: chunked'), Buffer.from('\r\ntransfer-encoding: chunked')];

/** The position of the first of `needles` in `buf` before `end`, or -1. */
function find(buf, needles, end) {
  for (const needle of needles) {
    const at = buf.indexOf(needle);
    if (at >= 0 && at < end) return at + needle.length;
  }
  return -1;
}

/**
 * The length of one complete response at the start of `buf`, or -1 when it is not complete yet. Works on the bytes
 * (no string of the head is made): both servers write the header names in one of the two usual cases.
 */
function responseLength(buf) {
  const headerEnd = buf.indexOf(HEADER_END);
  if (headerEnd < 0) return -1;
  const lengthAt = find(buf, CONTENT_LENGTH, headerEnd);
  if (lengthAt >= 0) {
    let length = 0;
    for (let i = lengthAt; buf[i] >= 0x30 && buf[i] <= 0x39; i++) length = length * 10 + buf[i] - 0x30;
    const total = headerEnd + 4 + length;
    return buf.length >= total ? total : -1;
  }
  if (find(buf, CHUNKED, headerEnd) >= 0) {
    const end = buf.indexOf(CHUNKED_END, headerEnd + 4);
    return end < 0 ? -1 : end + CHUNKED_END.length;
  }
  return headerEnd + 4;
}

/**
 * Runs `connections` connections against host:port for `warmupMs` (not counted) then `durationMs`; returns the
 * completed 200 answers per second and the count of other answers. `makeRequest(i)` gives each request's bytes.
 * `onMeasure('start' | 'end')` is called as the counted time starts and ends.
 */
export async function runLoad({
  host = '127.0.0.1',
  port,
  makeRequest,
  connections = 32,
  warmupMs = 1000,
  durationMs = 5000,
  check,
  onMeasure,
}) {
  let counting = false;
  let ok = 0;
  let failed = 0;
  let sent = 0;
  let firstFailure;
  const sockets = [];
  for (let i = 0; i < connections; i++) {
    // Reads land in one buffer per connection (`onread`), without a stream's per-chunk allocations and events;
    // only a response split across reads is copied.
    let pending;
    const socket = net.connect({
      port,
      host,
      noDelay: true,
      onread: {
        buffer: Buffer.allocUnsafe(64 * 1024),
        callback: (nread, buffer) => {
          let buf = pending ? Buffer.concat([pending, buffer.subarray(0, nread)]) : buffer.subarray(0, nread);
          pending = undefined;
          for (;;) {
            const length = responseLength(buf);
            if (length < 0) break;
            // "HTTP/1.1 200 ": the status is bytes 9 to 11.
            const ok200 = buf[9] === 0x32 && buf[10] === 0x30 && buf[11] === 0x30;
            const good = ok200 && (!check || check(buf.subarray(0, length)));
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
          if (buf.length > 0) pending = Buffer.from(buf);
        },
      },
    });
    const next = () => socket.write(makeRequest(sent++));
    socket.on('connect', next);
    socket.on('error', () => {});
    sockets.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, warmupMs));
  counting = true;
  onMeasure?.('start');
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  counting = false;
  const seconds = (performance.now() - started) / 1000;
  onMeasure?.('end');
  for (const socket of sockets) socket.destroy();
  return { perSecond: ok / seconds, completed: ok, failed, firstFailure };
}
