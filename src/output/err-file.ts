/**
 * The text of a `testNNNNNN.<kind>.err` file, in the layout KLEE's Executor writes
 * (terminateStateOnError + ExecutionState::dumpStack):
 *
 *   Error: memory error: out of bound pointer
 *   File: /src/prog.c
 *   Line: 12
 *   assembly.ll line: 57
 *   State: 3
 *   Stack: 
 *   \t#000000057 in f(p=94372116584448, n=symbolic) at /src/prog.c:12
 *   \t#100000031 in main() at /src/prog.c:20
 *   Info: 
 *   \taddress: ...
 *
 * The File/Line/assembly.ll line/State group appears only when the failing instruction has a
 * source file (as in KLEE). Each stack line is "#" + the frame index (0 = innermost) + the
 * frame's assembly.ll line zero-padded to 8 digits; arguments print as name=value, or
 * name=symbolic when the value is not a constant. "Stack: " and "Info: " keep KLEE's
 * trailing space.
 */

/** One frame of the stack, innermost first. */
export interface StackFrameInfo {
  /** Function name (as in the module). */
  fn: string;
  /** Line of the frame's current instruction in the printed module (tsklee's assembly.ll). */
  assemblyLine?: number;
  /** Source location of the frame's current instruction, when debug info has one. */
  file?: string;
  line?: number;
  /** Arguments in order; a missing value means symbolic, a missing name prints the value alone. */
  args?: StackArg[];
}

export interface StackArg {
  name?: string;
  /** A constant value, printed as given (KLEE prints constants in decimal). */
  value?: string | number | bigint;
}

export interface ErrFileInfo {
  message: string;
  file?: string;
  line?: number;
  assemblyLine?: number;
  stateId?: number;
  stack: StackFrameInfo[];
  /** Extra detail (e.g. the memory objects near a bad pointer), printed after "Info: ". */
  info?: string;
}

/** One line of the stack dump, without the leading tab and the trailing newline. */
export function formatStackFrame(index: number, f: StackFrameInfo): string {
  const asm = String(f.assemblyLine ?? 0).padStart(8, '0');
  const args = (f.args ?? [])
    .map((a) => {
      const v = a.value === undefined ? 'symbolic' : String(a.value);
      return a.name !== undefined && a.name !== '' ? `${a.name}=${v}` : v;
    })
    .join(', ');
  const at = f.file !== undefined && f.file !== '' ? ` at ${f.file}:${f.line ?? 0}` : '';
  return `#${index}${asm} in ${f.fn}(${args})${at}`;
}

/** The stack part of an .err file ("\t#..." lines), innermost frame first. */
export function formatStack(stack: readonly StackFrameInfo[]): string {
  return stack.map((f, i) => `\t${formatStackFrame(i, f)}\n`).join('');
}

/** The whole .err file text. */
export function formatErrFile(e: ErrFileInfo): string {
  let s = `Error: ${e.message}\n`;
  if (e.file !== undefined && e.file !== '') {
    s += `File: ${e.file}\n`;
    s += `Line: ${e.line ?? 0}\n`;
    if (e.assemblyLine !== undefined) s += `assembly.ll line: ${e.assemblyLine}\n`;
    if (e.stateId !== undefined) s += `State: ${e.stateId}\n`;
  }
  s += 'Stack: \n';
  s += formatStack(e.stack);
  if (e.info !== undefined && e.info !== '') {
    s += `Info: \n${e.info}`;
    if (!e.info.endsWith('\n')) s += '\n';
  }
  return s;
}

/** An .err file read back (parseErrFile): the stack keeps each frame's printed text. */
export interface ParsedErrFile {
  message: string;
  file?: string;
  line?: number;
  stack: { text: string; fn: string; file?: string; line?: number }[];
  info?: string;
}

const FRAME_RE = /^#\d+ in ([^(]*)\(.*\)(?: at (.*):(\d+))?$/;

/** Reads an .err file's text (KLEE's or tsklee's); what it cannot place is left out. */
export function parseErrFile(text: string): ParsedErrFile {
  const lines = text.split('\n');
  const out: ParsedErrFile = { message: '', stack: [] };
  let section: 'head' | 'stack' | 'info' = 'head';
  const info: string[] = [];
  for (const l of lines) {
    if (section === 'head') {
      if (l.startsWith('Error: ')) out.message = l.slice(7);
      else if (l.startsWith('File: ')) out.file = l.slice(6);
      else if (l.startsWith('Line: ')) out.line = Number(l.slice(6));
      else if (l.startsWith('Stack:')) section = 'stack';
    } else if (section === 'stack') {
      if (l.startsWith('Info:')) section = 'info';
      else if (l.startsWith('\t')) {
        const t = l.slice(1);
        const m = FRAME_RE.exec(t);
        out.stack.push({ text: t, fn: m?.[1] ?? '', file: m?.[2], line: m?.[3] !== undefined ? Number(m[3]) : undefined });
      }
    } else if (l !== '') info.push(l.replace(/^\t/, ''));
  }
  if (info.length > 0) out.info = info.join('\n');
  return out;
}
