/**
 * The progress bar over a whole matrix: `[#######.......] 12/27 cells  2 running  1 failed
 * 1m05s elapsed, ~1m30s left`. On a terminal it is one line redrawn in place; elsewhere
 * (logs, CI) a line per finished cell. One line of text needs no library (src/cli/progress.ts
 * draws run's status line the same way).
 */
const CLEAR = '\r\x1b[K';
const WIDTH = 24;

function duration(s: number): string {
  if (!Number.isFinite(s)) return '?';
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${Math.round(s)}s`;
}

export class MatrixProgress {
  private done = 0;
  private failed = 0;
  private running = 0;
  private skipped = 0;
  private readonly t0 = Date.now();
  private timer: NodeJS.Timeout | null = null;
  /** Extra text from the queue (waiting, workers). */
  note = '';

  constructor(
    private readonly total: number,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    if (this.tty) {
      this.timer = setInterval(() => this.draw(), 500);
      this.timer.unref();
    }
  }

  private get tty(): boolean {
    return this.stream.isTTY === true;
  }

  /** Cells already done before this run (a resumed matrix). */
  skip(n: number): void {
    this.skipped += n;
    this.done += n;
    if (!this.tty && n > 0) this.stream.write(`tsklee: experiment: ${n} of ${this.total} cells already done\n`);
  }

  started(): void {
    this.running++;
    this.draw();
  }

  finished(key: string, ok: boolean, seconds: number, detail = ''): void {
    this.running = Math.max(0, this.running - 1);
    this.done++;
    if (!ok) this.failed++;
    if (this.tty) this.draw();
    else this.stream.write(`tsklee: experiment: [${this.done}/${this.total}] ${key} ${ok ? 'ok' : 'FAILED'} ${seconds.toFixed(1)} s${detail !== '' ? ` ${detail}` : ''}\n`);
  }

  text(): string {
    const frac = this.total === 0 ? 1 : this.done / this.total;
    const bar = '#'.repeat(Math.round(frac * WIDTH)).padEnd(WIDTH, '.');
    const elapsed = (Date.now() - this.t0) / 1000;
    const ran = this.done - this.skipped;
    const left = ran > 0 ? (elapsed / ran) * (this.total - this.done) : Infinity;
    return `[${bar}] ${this.done}/${this.total} cells  ${this.running} running  ${this.failed} failed  ${duration(elapsed)} elapsed, ~${duration(left)} left${this.note !== '' ? `  ${this.note}` : ''}`;
  }

  private draw(): void {
    if (!this.tty) return;
    let line = this.text();
    const cols = this.stream.columns ?? 0;
    if (cols > 1 && line.length >= cols) line = line.slice(0, cols - 1);
    this.stream.write(`${CLEAR}${line}`);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.tty) this.stream.write(`${CLEAR}${this.text()}\n`);
  }
}
