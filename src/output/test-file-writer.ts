/**
 * Writes the files of tests, in order, off the interpreter's thread once a run has many.
 *
 * Creating a file costs more than the interpreter spends on a simple path: ~15–25 µs on
 * tmpfs, and on this machine's ext4 up to ~1 ms of kernel time (perf: ext4's inode allocator
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
 *  - at most MAX_PENDING_JOBS jobs' files wait: when the worker is that far behind, write()
 *    creates the job's files itself, alongside the worker, and leaves it only the job's line
 *    (appended in order, after the files); so a slow disk slows the run, not its memory, and
 *    the interpreter's thread never idles while files wait;
 *  - an error writing a file (disk full, …) is thrown by the write() that meets it or, once
 *    the worker writes, by the next write(), drain() or close(), as the fs error it was
 *    (code, syscall, path); the worker writes nothing after it (files of the few tests the
 *    calling thread wrote meanwhile may exist without their exit-status.txt line).
 *
 * The hand-over is a ring buffer in shared memory, not messages: write() copies the paths
 * and bytes into the ring and, every MAX_BATCH jobs or at the next turn of the event loop
 * (which the interpreter gives at least every 50 ms), publishes them with one atomic store,
 * waking the worker only if it sleeps. Batched structured-clone messages cost the
 * interpreter's thread as much as creating the files itself (4096 120-byte tests on tmpfs,
 * 50 µs of work between them: ~100–165 ms of messages against ~90 ms of direct writes);
 * copying into the ring costs it ~15–20 ms. The worker writes the exit-status lines of the
 * jobs it has taken in one write after their files.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';

/** One file of a job: its path and contents (strings are written as UTF-8). */
export type TestFile = readonly [path: string, data: string | Uint8Array];

/** Tests written on the calling thread before the worker starts. */
const SYNC_JOBS = 64;
/**
 * Small: the end of a run (and a Ctrl-C) waits for the queue, here at up to a few ms per file
 * on a busy disk. With 1024, a run stopped by Ctrl-C took ~4 s longer to exit.
 */
const MAX_PENDING_JOBS = 64;
/** Jobs are published to the worker when this many wait, even if the event loop does not turn. */
const MAX_BATCH = 16;
/** The ring's size: a power of two (positions are byte counts modulo 2^32). */
const RING_BYTES = 4 * 1024 * 1024;
/**
 * While jobs come, the worker looks for more every POLL_MS instead of sleeping until woken:
 * a wake-up (a futex syscall that reaches the other CPU) cost the main thread 50–90 µs here,
 * as much as writing the job's file itself. After IDLE_POLLS looks that find nothing it
 * sleeps, and the next publish wakes it.
 */
const POLL_MS = 1;
const IDLE_POLLS = 100;
/** No progress for this long while waiting: the worker is gone (it cannot happen short of a crash). */
const STALL_MS = 60_000;

/*
 * Shared memory: words, the error message, the ring. PUBLISHED and CONSUMED count the ring's
 * bytes (modulo 2^32) the main thread has handed over and the worker has finished with; DONE
 * counts finished jobs; the worker wakes the main thread only once DONE reaches WAKE_AT, and
 * the main thread wakes the worker only while SLEEPING is set.
 */
const PUBLISHED = 0;
const CONSUMED = 1;
const DONE = 2;
const WAKE_AT = 3;
const SLEEPING = 4;
const READY = 5;
const STOP = 6;
const ERROR_LEN = 7;
const WORDS = 8;
const ERROR_OFFSET = 64;
const ERROR_MAX = 1024;
const RING_OFFSET = ERROR_OFFSET + ERROR_MAX;

/*
 * A job in the ring, from a 4-byte aligned position, numbers little-endian u32:
 *   size (of the whole record, padded to 4) | file count | line length (NO_LINE: none)
 *   per file: path length | data length
 *   the paths' and files' bytes, in file order (path, data, path, data, …), then the line's.
 * A record never wraps: one that does not fit before the ring's end starts at 0, after a WRAP
 * word (or nothing, if fewer than 4 bytes were left).
 */
const WRAP = 0xffffffff;
const NO_LINE = 0xffffffff;

/**
 * The worker, as CommonJS source (a string, so it survives bundling and needs no file of its
 * own). It does what writeJob below does, for each job in the ring.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const shared = workerData.shared;
const words = new Int32Array(shared, 0, ${WORDS});
const errorBytes = new Uint8Array(shared, ${ERROR_OFFSET}, ${ERROR_MAX});
const RING_BYTES = workerData.ringBytes;
const ring = Buffer.from(shared, ${RING_OFFSET}, RING_BYTES);
const lineFd = workerData.lineFd;
let lines = Buffer.allocUnsafe(4096);
let linesUsed = 0;
function writeAll(fd, b, start, end) {
  while (start < end) start += fs.writeSync(fd, b, start, end - start);
}
function u32(pos) {
  return ring.readUInt32LE(pos);
}
function fail(e) {
  const err = JSON.stringify({ message: String(e && e.message || e), code: e && e.code, syscall: e && e.syscall, path: e && e.path });
  const msg = Buffer.from(err, 'utf8').subarray(0, ${ERROR_MAX});
  errorBytes.set(msg);
  Atomics.store(words, ${ERROR_LEN}, msg.length);
}
function flushLines() {
  if (linesUsed > 0 && Atomics.load(words, ${ERROR_LEN}) === 0) {
    try { writeAll(lineFd, lines, 0, linesUsed); } catch (e) { fail(e); }
  }
  linesUsed = 0;
}
/** Writes the job at ring position pos; returns its size. */
function job(pos) {
  const size = u32(pos);
  const files = u32(pos + 4);
  const lineLen = u32(pos + 8);
  let data = pos + 12 + 8 * files;
  if (Atomics.load(words, ${ERROR_LEN}) !== 0) return size;
  for (let f = 0; f < files; f++) {
    const pathLen = u32(pos + 12 + 8 * f);
    const dataLen = u32(pos + 16 + 8 * f);
    const path = ring.toString('utf8', data, data + pathLen);
    data += pathLen;
    let fd;
    try {
      fd = fs.openSync(path, 'wx', 0o644);
      try { writeAll(fd, ring, data, data + dataLen); } finally { fs.closeSync(fd); }
    } catch (e) {
      flushLines();
      fail(e);
      return size;
    }
    data += dataLen;
  }
  if (lineLen !== ${NO_LINE}) {
    if (linesUsed + lineLen > lines.length) {
      const bigger = Buffer.allocUnsafe(Math.max(lines.length * 2, linesUsed + lineLen));
      lines.copy(bigger, 0, 0, linesUsed);
      lines = bigger;
    }
    ring.copy(lines, linesUsed, data, data + lineLen);
    linesUsed += lineLen;
  }
  return size;
}
let consumed = 0;
let idlePolls = 0;
Atomics.store(words, ${READY}, 1);
for (;;) {
  let published = Atomics.load(words, ${PUBLISHED});
  if (published === consumed) {
    if (Atomics.load(words, ${STOP}) !== 0) break;
    if (idlePolls < ${IDLE_POLLS}) {
      // while jobs come, look every POLL_MS: waking this thread costs the main thread more
      idlePolls++;
      Atomics.wait(words, ${PUBLISHED}, consumed, ${POLL_MS});
      continue;
    }
    Atomics.store(words, ${SLEEPING}, 1);
    // the main thread publishes, then looks at SLEEPING: one of the two sees the other's store
    if (Atomics.load(words, ${PUBLISHED}) === consumed) Atomics.wait(words, ${PUBLISHED}, consumed, 200);
    Atomics.store(words, ${SLEEPING}, 0);
    continue;
  }
  idlePolls = 0;
  let jobs = 0;
  while (consumed !== published && jobs < ${MAX_PENDING_JOBS / 2}) {
    const pos = (consumed >>> 0) % RING_BYTES;
    if (RING_BYTES - pos < 4 || u32(pos) === ${WRAP}) {
      consumed = (consumed + RING_BYTES - pos) | 0;
      continue;
    }
    consumed = (consumed + job(pos)) | 0;
    jobs++;
  }
  flushLines();
  Atomics.store(words, ${CONSUMED}, consumed);
  const done = Atomics.add(words, ${DONE}, jobs) + jobs;
  if (done >= Atomics.load(words, ${WAKE_AT}) || Atomics.load(words, ${ERROR_LEN}) !== 0) Atomics.notify(words, ${DONE});
}
`;

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

/** Creates a job's files on the calling thread, in order (as the worker does). */
function writeFiles(files: readonly TestFile[]): void {
  for (const [path, data] of files) {
    const fd = openSync(path, 'wx', 0o644);
    try {
      writeAll(fd, data);
    } finally {
      closeSync(fd);
    }
  }
}

/** A job on the calling thread (as the worker does it). */
function writeJob(files: readonly TestFile[], line: string | null, lineFd: number): void {
  writeFiles(files);
  if (line !== null) writeAll(lineFd, line);
}

/** An upper bound of the ring bytes a job takes (strings at 3 UTF-8 bytes per UTF-16 unit). */
function jobBound(files: readonly TestFile[], line: string | null): number {
  let n = 12 + 3 + (line === null ? 0 : line.length * 3);
  for (const [path, data] of files) n += 8 + path.length * 3 + (typeof data === 'string' ? data.length * 3 : data.byteLength);
  return n;
}

/**
 * Writes s as UTF-8 at buf[at] (room for 3 bytes per UTF-16 unit assumed); returns the bytes
 * written. ASCII (paths, exit-status lines) byte by byte: Buffer#write is a runtime call,
 * ~1 µs each, several per test.
 */
function putString(buf: Buffer, at: number, s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return i + buf.write(s.slice(i), at + i, 'utf8');
    buf[at + i] = c;
  }
  return n;
}

/** The worker thread, its shared memory, and the main thread's side of the ring. */
class RingWorker {
  readonly words: Int32Array;
  readonly errorBytes: Uint8Array;
  private readonly ring: Buffer;
  readonly thread: Worker;
  /** Bytes appended (published or not), modulo 2^32, as the worker counts them. */
  private appended = 0;
  private unpublished = 0;
  /** Jobs appended to the ring. */
  queued = 0;

  constructor(
    lineFd: number,
    private readonly ringBytes: number,
  ) {
    const shared = new SharedArrayBuffer(RING_OFFSET + ringBytes);
    this.words = new Int32Array(shared, 0, WORDS);
    this.errorBytes = new Uint8Array(shared, ERROR_OFFSET, ERROR_MAX);
    this.ring = Buffer.from(shared, RING_OFFSET, ringBytes);
    // loaded here: most runs write too few tests for a thread, and loading it cost start-up ~2 ms
    const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
    // no execArgv: the parent's (say --input-type=module) would make the CommonJS source fail
    this.thread = new threads.Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { shared, lineFd, ringBytes } });
    // the process may end while it waits for jobs; pending jobs are waited for explicitly
    this.thread.unref();
  }

  get ready(): boolean {
    return Atomics.load(this.words, READY) === 1;
  }

  get done(): number {
    return Atomics.load(this.words, DONE);
  }

  get failed(): boolean {
    return Atomics.load(this.words, ERROR_LEN) !== 0;
  }

  get hasUnpublished(): boolean {
    return this.unpublished > 0;
  }

  /**
   * Whether a job of at most `bound` bytes fits in the ring now (counting the bytes skipped to
   * wrap). Only the worker's progress makes room.
   */
  fits(bound: number): boolean {
    const used = (this.appended - Atomics.load(this.words, CONSUMED)) >>> 0;
    const pos = (this.appended >>> 0) % this.ringBytes;
    const skip = pos + bound > this.ringBytes ? this.ringBytes - pos : 0;
    return used + skip + bound <= this.ringBytes;
  }

  /** Copies a job into the ring (it must fit; `bound` is its jobBound); published later. */
  append(files: readonly TestFile[], line: string | null, bound: number): void {
    const ring = this.ring;
    let pos = (this.appended >>> 0) % this.ringBytes;
    if (pos + bound > this.ringBytes) {
      if (this.ringBytes - pos >= 4) ring.writeUInt32LE(WRAP, pos);
      this.appended = (this.appended + this.ringBytes - pos) | 0;
      pos = 0;
    }
    const start = pos;
    ring.writeUInt32LE(files.length, pos + 4);
    let at = pos + 12 + 8 * files.length;
    for (let f = 0; f < files.length; f++) {
      const [path, data] = files[f]!;
      const pathLen = putString(ring, at, path);
      at += pathLen;
      let dataLen: number;
      if (typeof data === 'string') dataLen = putString(ring, at, data);
      else {
        dataLen = data.byteLength;
        if (dataLen > 256) ring.set(data, at);
        else for (let i = 0; i < dataLen; i++) ring[at + i] = data[i]!; // set() is a runtime call
      }
      at += dataLen;
      ring.writeUInt32LE(pathLen, pos + 12 + 8 * f);
      ring.writeUInt32LE(dataLen, pos + 16 + 8 * f);
    }
    if (line === null) ring.writeUInt32LE(NO_LINE, pos + 8);
    else {
      const lineLen = putString(ring, at, line);
      ring.writeUInt32LE(lineLen, pos + 8);
      at += lineLen;
    }
    const size = (at - start + 3) & ~3;
    ring.writeUInt32LE(size, start);
    this.appended = (this.appended + size) | 0;
    this.queued++;
    this.unpublished++;
  }

  /** Hands every appended job to the worker; wakes it if it sleeps. */
  publish(): void {
    if (this.unpublished === 0) return;
    this.unpublished = 0;
    Atomics.store(this.words, PUBLISHED, this.appended);
    if (Atomics.load(this.words, SLEEPING) !== 0) Atomics.notify(this.words, PUBLISHED);
  }

  /** Blocks until the worker has done `target` jobs (at most those appended) or failed; publishes first. */
  waitForDone(target: number): void {
    if (target > this.queued) throw new Error(`internal: waiting for job ${target} of ${this.queued}`);
    this.publish();
    const words = this.words;
    let last = Atomics.load(words, DONE);
    let since = Date.now();
    Atomics.store(words, WAKE_AT, target);
    while (last < target && !this.failed) {
      // returns at once if DONE moved since `last` was read: no wake-up is lost
      Atomics.wait(words, DONE, last, 1000);
      const now = Atomics.load(words, DONE);
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since > STALL_MS) throw new TestFileError(`writing test files: no progress for ${STALL_MS / 1000} s`);
    }
  }

  /** Ends the thread once it has taken every job (it is idle after a drain). */
  stop(): void {
    Atomics.store(this.words, STOP, 1);
    Atomics.notify(this.words, PUBLISHED);
    void this.thread.terminate();
  }
}

export class TestFileWriter {
  private lineFd: number | undefined;
  private jobsGiven = 0;
  private worker: RingWorker | undefined;
  private publishScheduled = false;
  private readonly scheduledPublish = (): void => {
    this.publishScheduled = false;
    this.worker?.publish();
  };
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

  /**
   * `linePath`: the file lines are appended to, created (it must not exist) with the first job.
   * `ringBytes`: the ring's size, a power of two from 64 (tests make it small to make it wrap).
   */
  constructor(
    private readonly linePath: string,
    private readonly ringBytes = RING_BYTES,
  ) {
    if (ringBytes < 64 || (ringBytes & (ringBytes - 1)) !== 0) throw new Error(`ring size ${ringBytes} is not a power of two >= 64`);
  }

  /** Writes a job: `files` in order (the caller may reuse their buffers at once), then `line` (when not null). */
  write(files: readonly TestFile[], line: string | null): void {
    const fd = this.openFd();
    this.throwIfFailed();
    if (++this.jobsGiven > SYNC_JOBS && this.worker === undefined) {
      this.worker = new RingWorker(fd, this.ringBytes);
      process.on('exit', this.onExit);
    }
    // until the worker runs (starting a thread takes tens of ms), writing here beats waiting
    const w = this.workerReady() ? this.worker! : undefined;
    if (w === undefined) {
      writeJob(files, line, fd);
      return;
    }
    const bound = jobBound(files, line);
    let jobFiles = files;
    let need = bound;
    if (bound > this.ringBytes / 4 || w.queued - w.done >= MAX_PENDING_JOBS || !w.fits(bound)) {
      // a big job (a large symbolic file's contents), or the worker is behind: create the files
      // here, alongside it, and leave it only the line, which it appends in order (after the
      // lines before it, and after this job's files)
      writeFiles(files);
      this.jobsBehind++;
      if (line === null) return;
      jobFiles = [];
      need = jobBound(jobFiles, line);
      if (need > this.ringBytes / 4) {
        // a line too long for the ring (only a library caller makes one): after the lines before it, here
        w.waitForDone(w.queued);
        this.throwIfFailed();
        writeAll(fd, line);
        return;
      }
    }
    // no room even for that: wait until half the ring's jobs are written (one wake-up, not one per job)
    for (;;) {
      const done = w.done; // once: the worker moves it meanwhile
      if (w.failed || w.fits(need)) break;
      w.waitForDone(Math.min(w.queued, Math.max(done + 1, w.queued - MAX_PENDING_JOBS / 2)));
    }
    this.throwIfFailed();
    w.append(jobFiles, line, need);
    if (w.hasUnpublished && w.queued % MAX_BATCH === 0) w.publish();
    else if (!this.publishScheduled) {
      // the interpreter lets the event loop turn at least every 50 ms: the jobs wait no longer
      this.publishScheduled = true;
      setImmediate(this.scheduledPublish).unref();
    }
  }

  /** Returns when every job given so far is on disk; throws the first error writing one. */
  drain(): void {
    const w = this.worker;
    if (w !== undefined) w.waitForDone(w.queued);
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
        this.worker.stop();
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

  /** Jobs given to the worker thread so far (with their files, or only their line when it was behind). */
  get jobsOnWorker(): number {
    return this.worker?.queued ?? 0;
  }

  /** Jobs whose files the calling thread created because the worker was behind (or they were big). */
  jobsBehind = 0;

  /** Whether jobs now go to the worker thread (tests use it to reach the worker's paths). */
  workerReady(): boolean {
    if (!this.ready && this.worker !== undefined) this.ready = this.worker.ready;
    return this.ready;
  }

  /** The worker's error, rebuilt as the fs error it was (code, syscall, path: the CLI reports those in one line). */
  private throwIfFailed(): void {
    const w = this.worker;
    const n = w !== undefined && w.failed ? Atomics.load(w.words, ERROR_LEN) : 0;
    if (n === 0) return;
    const text = Buffer.from(w!.errorBytes.subarray(0, n)).toString('utf8');
    let info: { message?: string; code?: string; syscall?: string; path?: string };
    try {
      info = JSON.parse(text) as typeof info;
    } catch {
      info = { message: text }; // cut at ERROR_MAX
    }
    throw Object.assign(new TestFileError(info.message ?? 'cannot write a test file'), { code: info.code, syscall: info.syscall, path: info.path });
  }
}
