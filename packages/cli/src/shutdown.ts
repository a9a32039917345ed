const hooks: (() => Promise<void> | void)[] = [];

/** Registers clean-up to run before the process ends (closing kept-alive connections, removing temporary files). */
export function onShutdown(hook: () => Promise<void> | void): void {
  hooks.push(hook);
}

export async function runShutdownHooks(): Promise<void> {
  for (const hook of hooks.splice(0)) {
    try {
      await hook();
    } catch {
      // clean-up is best effort
    }
  }
}
