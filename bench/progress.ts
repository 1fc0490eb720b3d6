// A progress line on stderr: redrawn in place on a terminal, a line every few percent otherwise
// (CI logs), so stdout stays clean for the table.
export class Progress {
  private done = 0;
  private lastPrinted = -1;
  private readonly t0 = performance.now();
  private readonly tty = process.stderr.isTTY === true;

  constructor(private readonly total: number, private readonly quiet = false) {}

  tick(label: string): void {
    this.done++;
    if (this.quiet || !this.total) return;
    const frac = this.done / this.total;
    const secs = (performance.now() - this.t0) / 1000;
    const eta = this.done ? (secs / this.done) * (this.total - this.done) : 0;
    const width = 28;
    const filled = Math.round(frac * width);
    const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
    const text = `${bar} ${String(this.done).padStart(String(this.total).length)}/${this.total} ${secs.toFixed(0)}s eta ${eta.toFixed(0)}s ${label}`;
    if (this.tty) {
      const cols = process.stderr.columns ?? 120;
      process.stderr.write('\r' + text.slice(0, cols - 1).padEnd(cols - 1));
      if (this.done === this.total) process.stderr.write('\n');
    } else {
      const step = Math.floor(frac * 20);
      if (step !== this.lastPrinted || this.done === this.total) {
        this.lastPrinted = step;
        process.stderr.write(text + '\n');
      }
    }
  }

  /** A message that must not be overwritten by the bar. */
  note(message: string): void {
    if (this.tty && !this.quiet) process.stderr.write('\r' + ' '.repeat((process.stderr.columns ?? 120) - 1) + '\r');
    process.stderr.write(message + '\n');
  }
}
