/**
 * Lines written synchronously, in 64 KiB batches, to stderr and/or a file (for
 * --debug-print-instructions, which can write a line per executed instruction).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const BATCH = 1 << 16;

export class LineSink {
  private buf: string[] = [];
  private size = 0;
  private readonly fds: number[] = [];
  private readonly own: number[] = [];

  constructor(stderrFd: number | null, file: string | null) {
    if (stderrFd !== null) this.fds.push(stderrFd);
    if (file !== null) {
      const fd = openSync(file, 'w');
      this.fds.push(fd);
      this.own.push(fd);
    }
  }

  write(line: string): void {
    this.buf.push(line);
    this.size += line.length + 1;
    if (this.size >= BATCH) this.flush();
  }

  flush(): void {
    if (this.buf.length === 0) return;
    const text = this.buf.join('\n') + '\n';
    this.buf = [];
    this.size = 0;
    for (const fd of this.fds) writeSync(fd, text);
  }

  close(): void {
    this.flush();
    for (const fd of this.own) closeSync(fd);
    this.own.length = 0;
  }
}
