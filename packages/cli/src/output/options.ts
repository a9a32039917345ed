/** Output formats of `-o`. */
export const formats = ['table', 'json', 'yaml', 'csv'] as const;
export type Format = (typeof formats)[number];

export interface OutputOptions {
  format: Format;
  /** Colours on stdout (off with --no-color, NO_COLOR, or when stdout is not a terminal). */
  color: boolean;
  /** Colours on stderr. */
  colorErr: boolean;
  quiet: boolean;
  /** Width tables must fit: the terminal's; unlimited when stdout is not a terminal (nothing is cut). */
  width: number;
}

/** How a command wants its data shown in a table. */
export interface TableHints {
  /** Columns in order; those absent from the data are left out. */
  columns?: readonly string[];
  /** Shown (on stderr) instead of an empty table. */
  empty?: string;
}
