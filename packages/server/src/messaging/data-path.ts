import path from 'node:path';

/**
 * Why a configured location (an e-mail pickup directory, an SMS file) is refused, or undefined when it is a
 * relative path that stays inside the data dir. Absolute paths and `..` escapes are refused: an admin setting
 * must not write files elsewhere on the machine.
 */
export function dataPathProblem(location: string): string | undefined {
  if (location.trim() === '') return 'must not be empty';
  if (location.includes('\0')) return 'must not contain a NUL character';
  if (path.isAbsolute(location) || path.win32.isAbsolute(location)) return 'must be a path relative to the data dir';
  const normal = path.normalize(location);
  if (normal === '..' || normal.startsWith(`..${path.sep}`) || normal.split(/[\\/]/).includes('..')) {
    return 'must stay inside the data dir';
  }
  return undefined;
}

/** The absolute location of a checked relative path under the data dir; throws for a refused one. */
export function resolveDataPath(dataDir: string, location: string): string {
  const problem = dataPathProblem(location);
  if (problem) throw new Error(`the path ${location} ${problem}`);
  const root = path.resolve(dataDir);
  const full = path.resolve(root, location);
  if (full !== root && !full.startsWith(`${root}${path.sep}`))
    throw new Error(`the path ${location} leaves the data dir`);
  return full;
}
