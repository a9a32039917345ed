/** The colours the CLI uses. */
export interface Painter {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const plain: Painter = {
  red: (t) => t,
  green: (t) => t,
  yellow: (t) => t,
  dim: (t) => t,
  bold: (t) => t,
};

let colored: Painter | undefined;

/**
 * Loads chalk (before a command runs, not for `--help`, so that starting stays fast). Colours are off until then,
 * and whenever `paint` is told so (--no-color, NO_COLOR, output not a terminal).
 */
export async function loadColors(): Promise<void> {
  if (colored) return;
  const { Chalk } = await import('chalk');
  colored = new Chalk({ level: 1 });
}

export function paint(enabled: boolean): Painter {
  return enabled && colored ? colored : plain;
}
