/**
 * `load` made into a function that runs it once per context object and hands every caller the same promise; a
 * failed load is forgotten, so the next call tries again.
 */
export function oncePerContext<C extends object, T>(load: (ctx: C) => Promise<T>): (ctx: C) => Promise<T> {
  const loaded = new WeakMap<C, Promise<T>>();
  return (ctx) => {
    let value = loaded.get(ctx);
    if (!value) {
      value = load(ctx);
      loaded.set(ctx, value);
      value.catch(() => loaded.delete(ctx));
    }
    return value;
  };
}
