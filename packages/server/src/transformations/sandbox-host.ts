import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sandboxWorkerSource } from './sandbox-worker.js';

/** Bounds of one script run. */
export interface SandboxLimits {
  /** Wall-clock time, checked by QuickJS's interrupt handler. */
  timeMs: number;
  memoryBytes: number;
  stackBytes: number;
}

/** Why a job failed, as the worker classifies it (plus `internal` for the sandbox itself). */
export type FailureKind = 'syntax' | 'runtime' | 'timeout' | 'memory' | 'stack' | 'contract' | 'result' | 'internal';

export type SandboxJob =
  | { op: 'compile'; script: string; limits: SandboxLimits }
  | { op: 'run'; script: string; input: string; limits: SandboxLimits };

export type SandboxOutcome =
  | { ok: true; output?: string }
  | { ok: false; kind: FailureKind; name: string; message: string; line: number | null };

type WorkerMessage = { ready: true } | ({ id: number; retire: boolean } & SandboxOutcome);

interface Pending {
  id: number;
  job: SandboxJob;
  resolve(outcome: SandboxOutcome): void;
}

/**
 * Extra time a job may take beyond its own time limit before the whole worker is stopped. The interrupt handler
 * is consulted only every few thousand QuickJS operations, so a loop around a costly native call (splitting a
 * long string, sorting a large array) can outlive the limit; stopping the thread is the backstop.
 */
export const hardLimitGraceMs = 400;

/** Jobs waiting beyond this many are refused at once rather than left to wait for seconds. */
export const maxQueuedJobs = 200;

const quickjsPath = createRequire(import.meta.url).resolve('quickjs-emscripten');

/**
 * Runs sandbox jobs one at a time on a worker thread, started on first use and again after it is stopped. The
 * thread does not keep the process alive while it has nothing to do.
 */
export class SandboxHost {
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  private readonly queue: Pending[] = [];
  private current: { pending: Pending; timer?: NodeJS.Timeout } | undefined;
  private nextId = 1;

  request(job: SandboxJob): Promise<SandboxOutcome> {
    return new Promise((resolve) => {
      if (this.queue.length >= maxQueuedJobs) {
        resolve({ ok: false, kind: 'internal', name: 'Error', message: 'the script sandbox is busy', line: null });
        return;
      }
      this.queue.push({ id: this.nextId++, job, resolve });
      this.pump();
    });
  }

  /** Stops the worker thread; jobs in progress fail as `internal`. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.reset();
    this.failCurrent('internal', 'the script sandbox was stopped');
    await worker?.terminate();
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    const pending = this.queue.shift() as Pending;
    this.current = { pending };
    this.start().then(
      (worker) => {
        if (this.current?.pending !== pending) return;
        worker.ref();
        // The clock starts once the thread is ready: loading QuickJS is not the script's time.
        this.current.timer = setTimeout(() => this.overrun(), pending.job.limits.timeMs + hardLimitGraceMs);
        worker.postMessage({ id: pending.id, ...pending.job });
      },
      (error: unknown) => {
        this.reset();
        this.failCurrent('internal', `the script sandbox did not start: ${messageOf(error)}`);
      },
    );
  }

  private start(): Promise<Worker> {
    if (this.ready) return this.ready;
    const worker = new Worker(sandboxWorkerSource, { eval: true, workerData: { quickjsPath } });
    this.worker = worker;
    this.ready = new Promise<Worker>((resolve, reject) => {
      worker.on('message', (message: WorkerMessage) => {
        if ('ready' in message) resolve(worker);
        else if (worker === this.worker) this.settle(message);
      });
      worker.on('error', (error) => {
        reject(error);
        if (worker !== this.worker) return;
        this.reset();
        this.failCurrent('internal', `the script sandbox failed: ${error.message}`);
      });
      worker.on('exit', (code) => {
        reject(new Error(`the sandbox thread exited (code ${code})`));
        if (worker !== this.worker) return;
        this.reset();
        this.failCurrent('internal', `the script sandbox exited (code ${code})`);
      });
    });
    this.ready.catch(() => {});
    return this.ready;
  }

  private settle(message: { id: number; retire: boolean } & SandboxOutcome): void {
    const current = this.current;
    if (!current || current.pending.id !== message.id) return;
    const { id: _id, retire, ...outcome } = message;
    if (retire) {
      // Its memory grew far (a WebAssembly memory never shrinks): the next job gets a new thread.
      const worker = this.worker;
      this.reset();
      void worker?.terminate();
    }
    this.finish(outcome);
  }

  /** The job outlived its limit by far: the thread is stopped and the next job gets a new one. */
  private overrun(): void {
    const worker = this.worker;
    const limit = this.current?.pending.job.limits.timeMs ?? 0;
    this.reset();
    void worker?.terminate();
    this.failCurrent('timeout', `the script ran longer than ${limit} ms and was stopped`);
  }

  private failCurrent(kind: FailureKind, message: string): void {
    if (this.current) this.finish({ ok: false, kind, name: 'Error', message, line: null });
  }

  private finish(outcome: SandboxOutcome): void {
    const current = this.current;
    if (!current) return;
    clearTimeout(current.timer);
    this.current = undefined;
    current.pending.resolve(outcome);
    if (this.queue.length === 0) this.worker?.unref();
    this.pump();
  }

  private reset(): void {
    this.worker = undefined;
    this.ready = undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
