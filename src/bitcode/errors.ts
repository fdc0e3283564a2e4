/**
 * Error type for everything that can go wrong while decoding a bitcode file:
 * malformed bitstreams, bad wrapper headers, broken archives, and (later)
 * semantically invalid IR records.
 */
export class BitcodeError extends Error {
  /** Name of the file being decoded; set by the top-level loader. */
  file?: string;

  /**
   * @param message what went wrong (no position, no file name: `oneLine()` adds those)
   * @param bitPos bit offset of the problem within the buffer being decoded
   *   (the buffer handed to `BitReader`), or -1 when unknown
   */
  constructor(
    message: string,
    public readonly bitPos: number = -1,
  ) {
    super(message);
    this.name = 'BitcodeError';
  }

  /** Byte offset of `bitPos`, or -1 when the position is unknown. */
  get bytePos(): number {
    return this.bitPos < 0 ? -1 : Math.floor(this.bitPos / 8);
  }

  /** One line: `"<file>: <message> (at byte 0x1a2b, bit 3)"`, omitting the parts that are unknown. */
  oneLine(): string {
    let s = this.file !== undefined && this.file !== '' ? `${this.file}: ${this.message}` : this.message;
    if (this.bitPos >= 0) {
      s += ` (at byte 0x${this.bytePos.toString(16)}, bit ${this.bitPos % 8})`;
    }
    return escapeControlChars(s);
  }
}

/**
 * Messages may quote strings taken from a (possibly corrupted) file; escape control
 * characters (C0, C1, line separators) so the message stays one printable line.
 */
export function escapeControlChars(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** `e` as a BitcodeError naming the file `ctx` decodes (a decoder's own Error becomes "malformed bitcode: …"). */
export function withFile(e: unknown, ctx: { file: string; bitPos: number }): BitcodeError {
  if (e instanceof BitcodeError) {
    if (e.file === undefined) e.file = ctx.file;
    return e;
  }
  const msg = e instanceof Error ? e.message : String(e);
  const err = new BitcodeError(`malformed bitcode: ${msg}`, ctx.bitPos);
  err.file = ctx.file;
  err.cause = e;
  return err;
}
