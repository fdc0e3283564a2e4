/**
 * Writes the files of tests, in order, off the interpreter's thread once a run has many.
 *
 * Creating a file costs more than the interpreter spends on a simple path: ~25 µs on tmpfs,
 * and on this machine's ext4 up to ~1 ms of kernel time (perf: ext4's inode allocator
 * skipping recently deleted inodes, so it grows with the files test suites delete), so a
 * fork-heavy run was bound by file creation. The first SYNC_JOBS tests are written directly
 * (a short run never pays for a thread); after that a worker thread starts, and once it
 * listens it takes every job, in order, and the interpreter goes on: the two overlap.
 *
 * A job is a test's files, created exclusively in the order given, then one line appended to
 * exit-status.txt (see exit-status.ts), so a line always names a test whose files are all on
 * disk. Guarantees:
 *  - drain() returns when every job given so far is on disk (OutputDir drains before it
 *    writes `info`, so a finished `info` means every test is there); close() drains too;
 *  - a process.exit() while jobs are queued (a second Ctrl-C) still writes them first;
 *  - at most MAX_PENDING_JOBS jobs / MAX_PENDING_BYTES bytes wait: beyond that write()
 *    blocks until the worker catches up, so a slow disk slows the run, not its memory;
 *  - an error writing a file (disk full, …) is thrown by the write() that meets it or, once
 *    the worker writes, by the next write(), drain() or close(), as the fs error it was
 *    (code, syscall, path); the worker writes nothing after it.
 * Cheap hand-over matters as much as the thread (at first it cost the main thread as much as
 * writing the files itself): jobs go to the worker packed in batches of up to MAX_BATCH (one
 * message, one buffer), a smaller batch at the next turn of the event loop, which the
 * interpreter gives at least every 50 ms (a test found in a slow run is on disk soon after it
 * is found); and a full queue is waited on until half of it is written, one wake-up, not one
 * per job. Measured on 4096 80-byte tests on tmpfs: 35 ms of main-thread CPU, against ~75 ms
 * with a message per job and a wake-up per job.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** One file of a job: its path and contents (strings are written as UTF-8). */
export type TestFile = readonly [path: string, data: string | Uint8Array];

/** Tests written on the calling thread before the worker starts. */
const SYNC_JOBS = 64;
/**
 * Small: the end of a run (and a Ctrl-C) waits for the queue, here at up to a few ms per file
 * on a busy disk. With 1024, a run stopped by Ctrl-C took ~4 s longer to exit.
 */
const MAX_PENDING_JOBS = 64;
const MAX_PENDING_BYTES = 64 * 1024 * 1024;
/** A batch is sent when it has this many jobs even if the worker is busy. */
const MAX_BATCH = 16;
/** No progress for this long while waiting: the worker is gone (it cannot happen short of a crash). */
const STALL_MS = 60_000;

/**
 * Shared words: jobs done; the length of the error message (0: none); the number of jobs done
 * the main thread waits for (the worker wakes it only then, not after every job); 1 once the
 * worker listens for jobs; then the error message.
 */
const DONE = 0;
const ERROR_LEN = 1;
const WAKE_AT = 2;
const READY = 3;
const ERROR_OFFSET = 16;
const ERROR_MAX = 1024;

/**
 * The worker, as CommonJS source (a string, so it survives bundling and needs no file of its
 * own). It does what writeJob below does.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const words = new Int32Array(workerData.shared, 0, 4);
const errorBytes = new Uint8Array(workerData.shared, ${ERROR_OFFSET});
function writeAll(fd, b) {
  let off = 0;
  while (off < b.length) off += fs.writeSync(fd, b, off, b.length - off);
}
parentPort.on('message', (batch) => {
  const { paths, ends, fileCounts, lines, bytes } = batch;
  let file = 0;
  let start = 0;
  for (let j = 0; j < lines.length; j++) {
    const last = file + fileCounts[j];
    try {
      for (; file < last; start = ends[file++]) {
        if (Atomics.load(words, ${ERROR_LEN}) !== 0) continue;
        const fd = fs.openSync(paths[file], 'wx', 0o644);
        try { writeAll(fd, bytes.subarray(start, ends[file])); } finally { fs.closeSync(fd); }
      }
      if (lines[j] !== null && Atomics.load(words, ${ERROR_LEN}) === 0) writeAll(workerData.lineFd, Buffer.from(lines[j], 'latin1'));
    } catch (e) {
      for (; file < last; file++) start = ends[file];
      const err = JSON.stringify({ message: String(e && e.message || e), code: e && e.code, syscall: e && e.syscall, path: e && e.path });
      const msg = Buffer.from(err, 'utf8').subarray(0, ${ERROR_MAX});
      errorBytes.set(msg);
      Atomics.store(words, ${ERROR_LEN}, msg.length);
    }
    const done = Atomics.add(words, ${DONE}, 1) + 1;
    if (done >= Atomics.load(words, ${WAKE_AT}) || Atomics.load(words, ${ERROR_LEN}) !== 0) Atomics.notify(words, ${DONE});
  }
});
Atomics.store(words, ${READY}, 1);
`;

/**
 * Jobs packed for one message: paths and lines as strings, the bytes of every file in one
 * buffer (cloning a small Uint8Array per file made postMessage cost as much as creating the
 * file on tmpfs). `ends[i]`: where file i's bytes end (they start where file i-1's end).
 */
class Batch {
  readonly paths: string[] = [];
  readonly ends: number[] = [];
  readonly fileCounts: number[] = [];
  readonly lines: (string | null)[] = [];
  private bytes = new Uint8Array(4096);
  private used = 0;

  get jobs(): number {
    return this.lines.length;
  }

  /** Adds a job; returns its size in bytes. */
  add(files: readonly TestFile[], line: string | null): number {
    const before = this.used;
    for (const [path, data] of files) {
      if (typeof data === 'string') {
        this.reserve(data.length * 3);
        this.used += utf8.encodeInto(data, this.bytes.subarray(this.used)).written;
      } else {
        this.reserve(data.byteLength);
        this.bytes.set(data, this.used);
        this.used += data.byteLength;
      }
      this.paths.push(path);
      this.ends.push(this.used);
    }
    this.fileCounts.push(files.length);
    this.lines.push(line);
    return this.used - before;
  }

  /** The message for the worker; the batch must not be used after it. */
  message(): { paths: string[]; ends: number[]; fileCounts: number[]; lines: (string | null)[]; bytes: Uint8Array } {
    return { paths: this.paths, ends: this.ends, fileCounts: this.fileCounts, lines: this.lines, bytes: this.bytes.subarray(0, this.used) };
  }

  get buffer(): ArrayBuffer {
    return this.bytes.buffer as ArrayBuffer;
  }

  private reserve(n: number): void {
    if (this.used + n <= this.bytes.length) return;
    const b = new Uint8Array(Math.max(this.bytes.length * 2, this.used + n));
    b.set(this.bytes.subarray(0, this.used));
    this.bytes = b;
  }
}

/** A failure writing a test's files in the worker (with its code, syscall and path), or a stalled worker. */
export class TestFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TestFileError';
  }
}

const utf8 = new TextEncoder();

function writeAll(fd: number, data: string | Uint8Array): void {
  const b = typeof data === 'string' ? utf8.encode(data) : data;
  let off = 0;
  while (off < b.length) off += writeSync(fd, b, off, b.length - off);
}

/** A job on the calling thread (as the worker does it). */
function writeJob(files: readonly TestFile[], line: string | null, lineFd: number): void {
  for (const [path, data] of files) {
    const fd = openSync(path, 'wx', 0o644);
    try {
      writeAll(fd, data);
    } finally {
      closeSync(fd);
    }
  }
  if (line !== null) writeAll(lineFd, line);
}

export class TestFileWriter {
  private lineFd: number | undefined;
  private jobsGiven = 0;
  private worker: Worker | undefined;
  private words: Int32Array | undefined;
  private errorBytes: Uint8Array | undefined;
  /** Jobs given to the worker (sent or in `batch`). */
  private jobsQueued = 0;
  private batch = new Batch();
  private sendScheduled = false;
  private readonly scheduledSend = (): void => {
    this.sendScheduled = false;
    this.sendBatch();
  };
  /** Sizes of the worker's jobs: job j's is sizes[j - sizesBase]; those before sizesHead are done. */
  private sizes: number[] = [];
  private sizesBase = 0;
  private sizesHead = 0;
  private pendingBytes = 0;
  /** process.exit() with jobs queued (a second Ctrl-C): write them before the process goes. */
  private readonly onExit = (): void => {
    try {
      this.drain();
    } catch (e) {
      process.stderr.write(`tsklee: error: ${(e as Error).message}\n`);
    }
  };

  private closed = false;
  /** The worker listens for jobs: from then on every job goes to it (jobs stay in order). */
  private ready = false;

  /** `linePath`: the file lines are appended to, created (it must not exist) with the first job. */
  constructor(private readonly linePath: string) {}

  /** Writes a job: `files` in order (the caller may reuse their buffers at once), then `line` (when not null). */
  write(files: readonly TestFile[], line: string | null): void {
    const fd = this.openFd();
    this.throwIfFailed();
    if (++this.jobsGiven > SYNC_JOBS) this.worker ??= this.startWorker(fd);
    // until the worker runs (starting a thread takes tens of ms), writing here beats waiting
    if (!this.workerReady()) {
      writeJob(files, line, fd);
      return;
    }
    this.releaseFinished();
    // full: wait until half the queue is written (one wake-up, not one per job), or all of it for bytes
    while (!this.failed() && (this.jobsQueued - this.jobsDone() >= MAX_PENDING_JOBS || this.pendingBytes > MAX_PENDING_BYTES)) {
      this.waitForDone(this.pendingBytes > MAX_PENDING_BYTES ? this.jobsQueued : this.jobsQueued - MAX_PENDING_JOBS / 2);
    }
    this.throwIfFailed();
    const size = this.batch.add(files, line);
    this.jobsQueued++;
    this.sizes.push(size);
    this.pendingBytes += size;
    if (this.batch.jobs >= MAX_BATCH) this.sendBatch();
    else if (!this.sendScheduled) {
      // the interpreter lets the event loop turn at least every 50 ms: the batch waits no longer
      this.sendScheduled = true;
      setImmediate(this.scheduledSend).unref();
    }
  }

  /** Returns when every job given so far is on disk; throws the first error writing one. */
  drain(): void {
    if (this.worker !== undefined) {
      this.sendBatch();
      this.waitForDone(this.jobsQueued);
    }
    this.throwIfFailed();
  }

  /** Drains, stops the worker and closes exit-status.txt. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.drain();
    } finally {
      if (this.worker !== undefined) {
        process.off('exit', this.onExit);
        void this.worker.terminate();
        this.worker = undefined;
      }
      if (this.lineFd !== undefined) closeSync(this.lineFd);
      this.lineFd = undefined;
    }
  }

  private openFd(): number {
    if (this.closed) throw new TestFileError('the output directory is closed');
    this.lineFd ??= openSync(this.linePath, 'wx', 0o644);
    return this.lineFd;
  }

  private startWorker(lineFd: number): Worker {
    const shared = new SharedArrayBuffer(ERROR_OFFSET + ERROR_MAX);
    this.words = new Int32Array(shared, 0, 4);
    this.errorBytes = new Uint8Array(shared, ERROR_OFFSET);
    // no execArgv: the parent's (say --input-type=module) would make the CommonJS source fail
    const w = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { shared, lineFd } });
    // the process may end while it is idle; pending jobs are waited for explicitly
    w.unref();
    process.on('exit', this.onExit);
    return w;
  }

  /** Whether jobs now go to the worker thread (tests use it to reach the worker's paths). */
  workerReady(): boolean {
    if (!this.ready && this.worker !== undefined) this.ready = Atomics.load(this.words!, READY) === 1;
    return this.ready;
  }

  private jobsDone(): number {
    return Atomics.load(this.words!, DONE);
  }

  private sendBatch(): void {
    if (this.batch.jobs === 0 || this.worker === undefined) return;
    this.worker.postMessage(this.batch.message(), [this.batch.buffer]);
    this.batch = new Batch();
  }

  /** Blocks until the worker has done `target` jobs (or failed); sends the batch first. */
  private waitForDone(target: number): void {
    this.sendBatch();
    const words = this.words!;
    let last = Atomics.load(words, DONE);
    let since = Date.now();
    Atomics.store(words, WAKE_AT, target);
    while (last < target && !this.failed()) {
      // returns at once if DONE moved since `last` was read: no wake-up is lost
      Atomics.wait(words, DONE, last, 1000);
      const now = Atomics.load(words, DONE);
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since > STALL_MS) throw new TestFileError(`writing test files: no progress for ${STALL_MS / 1000} s`);
    }
    this.releaseFinished();
  }

  private failed(): boolean {
    return this.words !== undefined && Atomics.load(this.words, ERROR_LEN) !== 0;
  }

  /** Forgets the sizes of the jobs the worker has finished. */
  private releaseFinished(): void {
    const done = this.jobsDone();
    while (this.sizesBase + this.sizesHead < done) this.pendingBytes -= this.sizes[this.sizesHead++]!;
    if (this.sizesHead >= 4096) {
      this.sizes = this.sizes.slice(this.sizesHead);
      this.sizesBase += this.sizesHead;
      this.sizesHead = 0;
    }
  }

  /** The worker's error, rebuilt as the fs error it was (code, syscall, path: the CLI reports those in one line). */
  private throwIfFailed(): void {
    const n = this.failed() ? Atomics.load(this.words!, ERROR_LEN) : 0;
    if (n === 0) return;
    const text = Buffer.from(this.errorBytes!.subarray(0, n)).toString('utf8');
    let info: { message?: string; code?: string; syscall?: string; path?: string };
    try {
      info = JSON.parse(text) as typeof info;
    } catch {
      info = { message: text }; // cut at ERROR_MAX
    }
    throw Object.assign(new TestFileError(info.message ?? 'cannot write a test file'), { code: info.code, syscall: info.syscall, path: info.path });
  }
}
