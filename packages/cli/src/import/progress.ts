/** A progress line on stderr (only on a terminal): bar, rows, rows/s, failures, and time left when the size is known. */
export class Progress {
  private readonly started = performance.now();
  private timer?: NodeJS.Timeout;
  private rows = 0;
  private failed = 0;
  private bytes = 0;

  constructor(
    private readonly enabled: boolean,
    private readonly totalBytes: number | undefined,
    private readonly label: string,
  ) {
    if (enabled) {
      this.timer = setInterval(() => this.render(), 200);
      this.timer.unref();
    }
  }

  update(rows: number, failed: number, bytes: number): void {
    this.rows = rows;
    this.failed = failed;
    this.bytes = bytes;
  }

  /** Rows per second since the start. */
  rate(): number {
    const seconds = (performance.now() - this.started) / 1000;
    return seconds > 0 ? this.rows / seconds : 0;
  }

  private render(): void {
    const rate = this.rate();
    const parts = [
      `${this.label} ${this.rows.toLocaleString('en-US')} rows`,
      `${Math.round(rate).toLocaleString('en-US')} rows/s`,
    ];
    if (this.failed) parts.push(`${this.failed.toLocaleString('en-US')} failed`);
    let bar = '';
    if (this.totalBytes) {
      const share = Math.min(1, this.bytes / this.totalBytes);
      const width = 24;
      const filled = Math.round(share * width);
      bar = `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${String(Math.floor(share * 100)).padStart(3)}% `;
      if (share > 0.01 && share < 1) {
        const elapsed = (performance.now() - this.started) / 1000;
        const left = Math.round((elapsed / share) * (1 - share));
        parts.push(`${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left`);
      }
    }
    const columns = process.stderr.columns ?? 100;
    process.stderr.write(`\r${`${bar}${parts.join('  ')}`.slice(0, columns - 1)}\x1b[K`);
  }

  stop(): void {
    if (!this.enabled) return;
    clearInterval(this.timer);
    process.stderr.write('\r\x1b[K');
  }
}
