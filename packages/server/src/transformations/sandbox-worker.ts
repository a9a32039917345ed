/**
 * The program of the sandbox's worker thread, as CommonJS source (a worker started with `eval: true`), so that the
 * same code runs from the built server and from its TypeScript sources under test.
 *
 * It loads QuickJS once (the promise is kept), then answers one job at a time:
 * - `{ id, op: 'compile', script, limits }`: compiles the script without running it;
 * - `{ id, op: 'run', script, input, limits }`: runs the script in a fresh QuickJS runtime and context (no
 *   `process`, no `require`, no network, no host object: only the JSON `input`, parsed and deep-frozen inside),
 *   calls `transform(input.claims, input.context)` and answers the result as JSON text.
 * Answers: `{ id, ok: true, output? }` or `{ id, ok: false, kind, name, message, line }`.
 * Each run has a time limit and a stack limit, and two memory bounds: QuickJS's own limit (which, in this WebAssembly
 * build, refuses any single allocation above it and bounds the count of allocations, but does not add up the bytes of
 * large strings and buffers) and the growth of the WebAssembly memory during the run, checked by the interrupt
 * handler and after the run. An answer with `retire: true` asks the host for a new thread: the memory grew far and a
 * WebAssembly memory never shrinks. The host also stops the thread when a job outlives its time limit by far (a
 * native call the interrupt handler cannot break into).
 */
export const sandboxWorkerSource = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { getQuickJS } = require(workerData.quickjsPath);

const FILE = 'transform.js';

// Evaluated before the script: keeps the intrinsics it needs, so that the script cannot swap them.
const HARNESS = '(() => {' +
  ' const parse = JSON.parse, stringify = JSON.stringify, freeze = Object.freeze, keys = Object.keys;' +
  ' const deepFreeze = (v) => { if (v !== null && typeof v === "object") { for (const k of keys(v)) deepFreeze(v[k]); freeze(v); } return v; };' +
  ' return (transform, input) => { const data = deepFreeze(parse(input));' +
  ' const out = transform(data.claims, data.context); return stringify(out === undefined ? null : out); };' +
  '})()';

const quickjs = getQuickJS();

function lineOf(value) {
  if (typeof value.lineNumber === 'number') return value.lineNumber;
  const match = typeof value.stack === 'string' ? /transform\.js:(\d+)/.exec(value.stack) : null;
  return match ? Number(match[1]) : null;
}

// What a script throws ends up in an answer: keep it short.
const shorten = (message) => (message.length > 500 ? message.slice(0, 500) + '…' : message);

function describeError(ctx, handle) {
  let value;
  try {
    value = ctx.dump(handle);
  } catch {
    value = undefined;
  }
  if (value !== null && typeof value === 'object') {
    const name = typeof value.name === 'string' ? value.name : 'Error';
    const message = typeof value.message === 'string' ? value.message : JSON.stringify(value);
    return { name: name.slice(0, 100), message: shorten(message), line: lineOf(value) };
  }
  return { name: 'Error', message: shorten('uncaught ' + String(value)), line: null };
}

function kindOf(error) {
  if (error.name === 'InternalError' && error.message === 'interrupted') return 'timeout';
  if (error.name === 'InternalError' && error.message === 'out of memory') return 'memory';
  if (/stack overflow/.test(error.message)) return 'stack';
  if (error.name === 'SyntaxError') return 'syntax';
  return 'runtime';
}

function failure(ctx, handle) {
  const error = describeError(ctx, handle);
  handle.dispose();
  return { ok: false, kind: kindOf(error), ...error };
}

function withContext(module, limits, work) {
  const memory = module.getWasmMemory();
  const before = memory.buffer.byteLength;
  const grownTooMuch = () => memory.buffer.byteLength - before > limits.memoryBytes;
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const deadline = Date.now() + limits.timeMs;
  let overMemory = false;
  runtime.setInterruptHandler(() => {
    overMemory = grownTooMuch();
    return overMemory || Date.now() > deadline;
  });
  const ctx = runtime.newContext();
  const handles = [];
  try {
    const outcome = work(ctx, (handle) => {
      handles.push(handle);
      return handle;
    });
    if (overMemory || grownTooMuch()) return { ok: false, kind: 'memory', name: 'InternalError', message: 'out of memory', line: null };
    return outcome;
  } finally {
    for (const handle of handles) handle.dispose();
    ctx.dispose();
    runtime.dispose();
  }
}

function compile(module, job) {
  return withContext(module, job.limits, (ctx) => {
    const result = ctx.evalCode(job.script, FILE, { type: 'global', compileOnly: true });
    if (result.error) return failure(ctx, result.error);
    result.value.dispose();
    return { ok: true };
  });
}

function run(module, job) {
  return withContext(module, job.limits, (ctx, keep) => {
    const harness = ctx.evalCode(HARNESS, 'harness.js');
    if (harness.error) return failure(ctx, harness.error);
    const call = keep(harness.value);
    const script = ctx.evalCode(job.script, FILE, { type: 'global' });
    if (script.error) return failure(ctx, script.error);
    script.value.dispose();
    const transform = keep(ctx.getProp(ctx.global, 'transform'));
    if (ctx.typeof(transform) !== 'function') {
      return { ok: false, kind: 'contract', name: 'Error', message: 'the script defines no function transform(claims, context)', line: null };
    }
    const input = keep(ctx.newString(job.input));
    const result = ctx.callFunction(call, ctx.undefined, transform, input);
    if (result.error) return failure(ctx, result.error);
    const output = keep(result.value);
    if (ctx.typeof(output) !== 'string') {
      return { ok: false, kind: 'result', name: 'Error', message: 'transform(claims, context) returned a value that is not JSON', line: null };
    }
    return { ok: true, output: ctx.getString(output) };
  });
}

quickjs.then(
  (module) => {
    const memory = module.getWasmMemory();
    const initial = memory.buffer.byteLength;
    parentPort.on('message', (job) => {
      let outcome;
      try {
        outcome = job.op === 'compile' ? compile(module, job) : run(module, job);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        outcome = { ok: false, kind: 'internal', name: 'Error', message, line: null };
      }
      const retire = memory.buffer.byteLength - initial > 2 * job.limits.memoryBytes;
      parentPort.postMessage({ id: job.id, retire, ...outcome });
    });
    parentPort.postMessage({ ready: true });
  },
  (error) => {
    throw error;
  },
);
`;
