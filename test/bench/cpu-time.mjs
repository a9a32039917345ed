// CPU time of a process, all its threads together, from Linux's scheduler statistics (nanoseconds). Elsewhere
// the figures are left out.
import { readdirSync, readFileSync } from 'node:fs';

/** Nanoseconds the process's threads have run so far, or undefined where /proc does not tell. */
export function cpuNanoseconds(pid) {
  try {
    let total = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    }
    return total;
  } catch {
    return undefined;
  }
}
