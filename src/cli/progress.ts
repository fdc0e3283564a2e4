/**
 * The live status line of `tsklee run` on a terminal: one line on stderr, redrawn in place with
 * `\r` a few times a second (elapsed time, paths, tests, errors, live states, instruction
 * coverage, solver queries). Only when stderr is a TTY: logs and pipes never see it. A single
 * `\r` line needs no library.
 */
import type { Executor } from '../engine/executor.js';

const REDRAW_MS = 250;

const CLEAR = '\r\x1b[K';

export class ProgressLine {
  private timer: NodeJS.Timeout | null = null;
  private shown = false;
  private ex: Executor | null = null;
  private readonly t0 = Date.now();

  constructor(private readonly stream: NodeJS.WriteStream) {}

  /** A progress line when `stream` is a terminal, else null. */
  static forStream(stream: NodeJS.WriteStream): ProgressLine | null {
    return stream.isTTY === true ? new ProgressLine(stream) : null;
  }

  start(ex: Executor): void {
    this.ex = ex;
    this.timer = setInterval(() => this.draw(), REDRAW_MS);
    this.timer.unref();
  }

  /** Erase the line before other output; the next redraw brings it back below. */
  clear(): void {
    if (!this.shown) return;
    this.stream.write(CLEAR);
    this.shown = false;
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.clear();
  }

  /** The status text (without control characters). */
  text(): string {
    const ex = this.ex;
    if (ex === null) return '';
    const w = ex.writer;
    const total = ex.km.instructions.length;
    const cov = total > 0 ? ((100 * ex.coveredCount) / total).toFixed(1) : '0.0';
    const live = ex.liveStateCount;
    const merged = ex.mergedStates > 0 ? `  merged ${ex.mergedStates}` : '';
    const secs = ((Date.now() - this.t0) / 1000).toFixed(0);
    return `tsklee: ${secs}s  paths ${w.exploredPaths}  tests ${w.generatedTests}  errors ${w.errors}  states ${live}${merged}  covered ${cov}% (${ex.coveredCount}/${total} instructions)  queries ${ex.queries}`;
  }

  private draw(): void {
    let line = this.text();
    const cols = this.stream.columns ?? 0;
    if (cols > 1 && line.length >= cols) line = line.slice(0, cols - 1);
    this.stream.write(`${CLEAR}${line}`);
    this.shown = true;
  }
}
