import { afterAll, describe, expect, it } from 'vitest';
import { compileScript, defaultLimits, runScript, ScriptError, stopSandbox } from './sandbox.js';

const claims = [
  { type: 'email', value: 'ann@example.com' },
  { type: 'given_name', value: 'Ann' },
];

/** The error a run rejects with. */
async function failureOf(run: Promise<unknown>): Promise<ScriptError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ScriptError)) throw new Error(`expected a ScriptError, got ${String(error)}`);
  return error;
}

afterAll(async () => {
  await stopSandbox();
});

describe('compileScript', () => {
  it('accepts a script that compiles, without running it', async () => {
    expect(await compileScript('function transform(claims) { return claims; }\nwhile (true) {}')).toEqual({ ok: true });
  });

  it("reports the compiler's message and line of a syntax error", async () => {
    const script = 'function transform(claims) {\n  return claims;\n  }\n}\n';
    expect(await compileScript(script)).toEqual({
      ok: false,
      message: "SyntaxError: unexpected token in expression: '}'",
      line: 4,
    });
  });
});

describe('runScript', () => {
  it('runs transform(claims, context) and answers the claims it returns', async () => {
    const script = `function transform(claims, context) {
      return claims
        .filter((c) => c.type !== 'email')
        .map((c) => ({ type: c.type, value: c.value.toUpperCase() }))
        .concat([{ type: 'registered', value: String(context.registeredUser) }]);
    }`;
    expect(await runScript(script, claims, { registeredUser: true })).toEqual([
      { type: 'given_name', value: 'ANN' },
      { type: 'registered', value: 'true' },
    ]);
  });

  it('gives the script frozen input', async () => {
    const script = `function transform(claims, context) {
      return [{ type: 'frozen', value: [Object.isFrozen(claims), Object.isFrozen(claims[0]), Object.isFrozen(context)].join() }];
    }`;
    expect(await runScript(script, claims, { registeredUser: false })).toEqual([
      { type: 'frozen', value: 'true,true,true' },
    ]);
  });

  it('has no process, require, fetch or console inside', async () => {
    const script = `function transform() {
      return [{ type: 'globals', value: [typeof process, typeof require, typeof fetch, typeof console].join() }];
    }`;
    expect(await runScript(script, [])).toEqual([
      { type: 'globals', value: 'undefined,undefined,undefined,undefined' },
    ]);
  });

  it("fails on require('fs')", async () => {
    const error = await failureOf(runScript("const fs = require('fs');\nfunction transform(c) { return c; }", claims));
    expect({ kind: error.kind, message: error.message, line: error.line }).toEqual({
      kind: 'runtime',
      message: "ReferenceError: 'require' is not defined at line 1",
      line: 1,
    });
  });

  it('stops an endless loop at the time limit', async () => {
    const started = Date.now();
    const error = await failureOf(runScript('function transform(c) { while (true) {} }', claims));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/^the script ran longer than 100 ms and was stopped/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops a loop around a costly native call, which the interrupt handler cannot break into', async () => {
    const script = `function transform(c) { const s = 'x'.repeat(1 << 20); for (;;) s.split(''); }`;
    const started = Date.now();
    const error = await failureOf(runScript(script, claims));
    expect({ kind: error.kind, message: error.message }).toEqual({
      kind: 'timeout',
      message: 'the script ran longer than 100 ms and was stopped',
    });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await runScript('function transform(c) { return c; }', claims)).toEqual(claims);
  });

  it('stops a memory bomb at the memory limit', async () => {
    // A time limit far above what the bomb needs to pass 16 MiB, so that only the memory limit can stop it.
    const limits = { ...defaultLimits, timeMs: 2000 };
    const started = Date.now();
    const bomb = 'function transform(c) { const a = []; for (;;) a.push(new Uint8Array(4096)); }';
    const error = await failureOf(runScript(bomb, claims, {}, limits));
    expect({ kind: error.kind, message: error.message }).toEqual({
      kind: 'memory',
      message: 'the script used more than 16 MiB of memory and was stopped',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a single allocation above the memory limit', async () => {
    const error = await failureOf(
      runScript("function transform(c) {\n  return [{ type: 'x', value: 'x'.repeat(32 << 20) }];\n}", claims),
    );
    expect({ kind: error.kind, message: error.message }).toEqual({
      kind: 'memory',
      message: 'the script used more than 16 MiB of memory and was stopped at line 2',
    });
  });

  it('stops an endless recursion at the stack limit', async () => {
    const error = await failureOf(
      runScript('function f() { return f() + 1; }\nfunction transform(c) { return f(); }', claims),
    );
    expect(error.kind).toBe('stack');
    expect(error.message).toMatch(/^the script exceeded the stack limit of 256 KiB/);
  });

  it('reports the line of a syntax error', async () => {
    const error = await failureOf(runScript('function transform(c) {\n  return c +;\n}', claims));
    expect({ kind: error.kind, message: error.message, line: error.line }).toEqual({
      kind: 'syntax',
      message: "SyntaxError: unexpected token in expression: ';' at line 2",
      line: 2,
    });
  });

  it('reports an error the script throws, with its line', async () => {
    const error = await failureOf(runScript('function transform(c) {\n\n  throw new TypeError("no");\n}', claims));
    expect({ kind: error.kind, message: error.message }).toEqual({
      kind: 'runtime',
      message: 'TypeError: no at line 3',
    });
  });

  it('refuses a script without a transform function', async () => {
    const error = await failureOf(runScript('const x = 1;', claims));
    expect({ kind: error.kind, message: error.message }).toEqual({
      kind: 'contract',
      message: 'the script defines no function transform(claims, context)',
    });
  });

  it('refuses a result that is not a list of claims', async () => {
    const notArray = await failureOf(runScript('function transform(c) { return { type: "a", value: "b" }; }', claims));
    expect({ kind: notArray.kind, message: notArray.message }).toEqual({
      kind: 'result',
      message:
        'transform(claims, context) must return an array of { type, value } strings (Invalid input: expected array, received object)',
    });
    const badValue = await failureOf(runScript('function transform(c) { return [{ type: "a", value: 1 }]; }', claims));
    expect(badValue.message).toBe(
      'transform(claims, context) must return an array of { type, value } strings (at 0.value: Invalid input: expected string, received number)',
    );
  });

  it('keeps only type and value of the returned items', async () => {
    const script = 'function transform(c) { return [{ type: "a", value: "b", extra: 1 }]; }';
    expect(await runScript(script, claims)).toEqual([{ type: 'a', value: 'b' }]);
  });

  it('runs each script in a fresh context', async () => {
    const script = `var counter = (globalThis.counter || 0) + 1;
      function transform() { return [{ type: 'n', value: String(counter) }]; }`;
    expect(await runScript(script, [])).toEqual([{ type: 'n', value: '1' }]);
    expect(await runScript(script, [])).toEqual([{ type: 'n', value: '1' }]);
  });

  it('runs concurrent requests one after another, each to its own answer', async () => {
    const scripts = ['a', 'b', 'c'].map((v) => `function transform() { return [{ type: 't', value: '${v}' }]; }`);
    const results = await Promise.all(scripts.map((s) => runScript(s, [])));
    expect(results).toEqual([[{ type: 't', value: 'a' }], [{ type: 't', value: 'b' }], [{ type: 't', value: 'c' }]]);
  });
});
