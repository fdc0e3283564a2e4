/**
 * Test harness for the metadata reader, independent of the module and function readers:
 * walks real bitcode, gives the metadata reader the blocks it owns, stands in for the rest
 * (dummy values and types; instructions counted but not decoded; FUNC_CODE_DEBUG_LOC
 * turned into DILocations), and parses llvm-dis output for comparison.
 */
import { EntryKind, type BitstreamCursor } from '../../../../src/bitcode/cursor.js';
import { openBitcodeCursor } from '../../../../src/bitcode/wrapper.js';
import { BlockId, FunctionCode, ModuleCode } from '../../../../src/bitcode/reader/ids.js';
import { ReaderContext } from '../../../../src/bitcode/reader/context.js';
import {
  MetadataList,
  metadataList,
  readMetadataAttachmentBlock,
  readMetadataBlock,
  readMetadataKindBlock,
} from '../../../../src/bitcode/reader/metadata-reader.js';
import { Module } from '../../../../src/ir/module.js';
import { BasicBlock, Function, GlobalVariable } from '../../../../src/ir/globals.js';
import { UnreachableInst, type Instruction } from '../../../../src/ir/instructions.js';
import { DILocation, type Metadata } from '../../../../src/ir/metadata.js';
import { FunctionType, I32, MetadataType, VoidType, type Type } from '../../../../src/ir/types.js';

export interface WalkedFunction {
  fn: Function;
  insts: Instruction[];
  /** Debug location of each instruction, from DEBUG_LOC / DEBUG_LOC_AGAIN. */
  locs: (DILocation | null)[];
}

export interface Walked {
  module: Module;
  md: MetadataList;
  /** Every node defined, module-level and function-local. */
  nodes: Metadata[];
  functions: WalkedFunction[];
  /** Time spent in the metadata reader's functions. */
  metadataMs: number;
}

const INSTRUCTION_CODES = new Set(
  Object.entries(FunctionCode)
    .filter(([name]) => name.startsWith('Inst'))
    .map(([, code]) => code as number),
);

export function walkBitcode(buf: Uint8Array, file = 'test.bc'): Walked {
  const strtab = findStrtab(buf);
  const module = new Module();
  const ctx = new ReaderContext(file, module);
  ctx.strtab = strtab;
  const md = metadataList(ctx);
  const out: Walked = { module, md, nodes: [], functions: [], metadataMs: 0 };
  const bodies: Function[] = [];
  const timed = (f: () => void): void => {
    const t0 = performance.now();
    f();
    out.metadataMs += performance.now() - t0;
  };
  const collect = (from: number): void => {
    for (let id = from; id < md.size; id++) out.nodes.push(md.lookup(id)!);
  };

  const cursor = openBitcodeCursor(buf);
  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) break;
    if (e.kind !== EntryKind.SubBlock) throw new Error('record at top level');
    if (e.id !== BlockId.Module) {
      cursor.skipBlock();
      continue;
    }
    cursor.enterSubBlock(BlockId.Module);
    for (;;) {
      const m = cursor.advance();
      if (m.kind === EntryKind.EndBlock) break;
      if (m.kind === EntryKind.Record) {
        const rec = cursor.readRecord(m.id);
        const name = () => (ctx.version >= 2 && strtab ? ctx.strtabString(rec.ops[0]!, rec.ops[1]!) : '');
        if (rec.code === ModuleCode.Version) ctx.version = rec.ops[0]!;
        else if (rec.code === ModuleCode.GlobalVar) {
          const gv = new GlobalVariable(name(), I32, 0, I32);
          module.globals.push(gv);
          ctx.values.push(gv);
        } else if (rec.code === ModuleCode.Function) {
          const fn = new Function(name(), FunctionType.get(VoidType, [], false), 0, I32);
          fn.hasBody = rec.ops[ctx.version >= 2 ? 4 : 2] === 0;
          module.functions.push(fn);
          ctx.values.push(fn);
          if (fn.hasBody) bodies.push(fn);
        } else if (rec.code === ModuleCode.Alias || rec.code === ModuleCode.IFunc) {
          ctx.values.push(new GlobalVariable(name(), I32, 0, I32));
        }
        continue;
      }
      switch (m.id) {
        case BlockId.TypeNew:
          readTypes(ctx, cursor);
          break;
        case BlockId.Constants:
          readConstantCount(ctx, cursor);
          break;
        case BlockId.MetadataKind:
          timed(() => readMetadataKindBlock(ctx, cursor));
          break;
        case BlockId.Metadata: {
          const from = md.size;
          timed(() => readMetadataBlock(ctx, cursor));
          collect(from);
          break;
        }
        case BlockId.Function: {
          const fn = bodies.shift();
          if (!fn) throw new Error('function block without a function');
          out.functions.push(readFunction(ctx, cursor, fn, timed, collect));
          break;
        }
        default:
          cursor.skipBlock();
      }
    }
  }
  return out;
}

function findStrtab(buf: Uint8Array): Uint8Array | null {
  const cursor = openBitcodeCursor(buf);
  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) return null;
    if (e.kind === EntryKind.SubBlock && e.id === BlockId.Strtab) {
      cursor.enterSubBlock(BlockId.Strtab);
      for (;;) {
        const r = cursor.advance();
        if (r.kind === EntryKind.EndBlock) return null;
        if (r.kind === EntryKind.Record) {
          const rec = cursor.readRecord(r.id);
          if (rec.blob) return rec.blob;
        } else cursor.skipBlock();
      }
    }
    if (e.kind === EntryKind.SubBlock) cursor.skipBlock();
  }
}

/** Types: metadata and void are real, every other type is i32 (enough for VALUE records). */
function readTypes(ctx: ReaderContext, cursor: BitstreamCursor): void {
  cursor.enterSubBlock(BlockId.TypeNew);
  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) return;
    if (e.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    const rec = cursor.readRecord(e.id);
    if (rec.code === 1 || rec.code === 19) continue; // NUMENTRY, STRUCT_NAME
    const t: Type = rec.code === 16 ? MetadataType : rec.code === 2 ? VoidType : I32;
    ctx.types.push(t);
  }
}

/** Module-level constants: one dummy value per record but SETTYPE. */
function readConstantCount(ctx: ReaderContext, cursor: BitstreamCursor): void {
  cursor.enterSubBlock(BlockId.Constants);
  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) return;
    if (e.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    const rec = cursor.readRecord(e.id);
    if (rec.code !== 1) ctx.values.push(new GlobalVariable('', I32, 0, I32));
  }
}

function readFunction(
  ctx: ReaderContext,
  cursor: BitstreamCursor,
  fn: Function,
  timed: (f: () => void) => void,
  collect: (from: number) => void,
): WalkedFunction {
  const md = ctx.md as MetadataList;
  const valuesSize = ctx.values.size;
  md.enterFunction();
  const moduleMd = md.size;
  const bb = new BasicBlock(fn);
  fn.blocks.push(bb);
  const insts: Instruction[] = [];
  const locs: (DILocation | null)[] = [];
  let lastLoc: DILocation | null = null;
  cursor.enterSubBlock(BlockId.Function);
  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) break;
    if (e.kind === EntryKind.SubBlock) {
      if (e.id === BlockId.Metadata) timed(() => readMetadataBlock(ctx, cursor));
      else if (e.id === BlockId.MetadataAttachment) timed(() => readMetadataAttachmentBlock(ctx, cursor, fn, insts));
      else cursor.skipBlock();
      continue;
    }
    const rec = cursor.readRecord(e.id);
    if (INSTRUCTION_CODES.has(rec.code)) {
      const inst = new UnreachableInst(VoidType, []);
      inst.parent = bb;
      insts.push(inst);
      locs.push(null);
    } else if (rec.code === FunctionCode.DebugLoc) {
      const [line, col, scope, ia, implicit] = rec.ops;
      lastLoc = new DILocation(line!, col!, md.getOrNull(scope!), md.getOrNull(ia!), (implicit ?? 0) !== 0);
      locs[locs.length - 1] = lastLoc;
    } else if (rec.code === FunctionCode.DebugLocAgain) {
      locs[locs.length - 1] = lastLoc;
    }
  }
  collect(moduleMd);
  md.exitFunction();
  ctx.values.truncate(valuesSize);
  return { fn, insts, locs };
}

// ---------------------------------------------------------------------------- llvm-dis text

export interface LlNode {
  id: number;
  distinct: boolean;
  /** 'DILocation', 'DISubprogram', … or '' for a tuple `!{...}`. */
  kind: string;
  /** The text between the parentheses (or braces). */
  body: string;
}

export interface LlFunction {
  name: string;
  dbg: number | null;
  /** Instruction lines (no labels, no #dbg records). */
  insts: string[];
}

export interface LlModule {
  nodes: Map<number, LlNode>;
  named: Map<string, number[]>;
  functions: LlFunction[];
  /** Global variable name → its `!dbg` node ids. */
  globalDbg: Map<string, number[]>;
  text: string;
}

export function parseLl(text: string): LlModule {
  const nodes = new Map<number, LlNode>();
  const named = new Map<string, number[]>();
  const functions: LlFunction[] = [];
  const globalDbg = new Map<string, number[]>();
  let cur: LlFunction | null = null;
  for (const line of text.split('\n')) {
    // Instructions are indented by two; deeper lines (switch cases, callbr labels) and `]` continue one.
    if (cur) {
      if (line === '}') cur = null;
      else if (line.trimStart().startsWith('#dbg_') || !line.startsWith('  ')) continue;
      else if (line.startsWith('    ') || line.startsWith('  ]')) cur.insts[cur.insts.length - 1] += ` ${line.trim()}`;
      else cur.insts.push(line.trim());
      continue;
    }
    let m = /^!(\d+) = (distinct )?!(\w*)([({])(.*)[)}]$/.exec(line);
    if (m) {
      nodes.set(Number(m[1]), { id: Number(m[1]), distinct: !!m[2], kind: m[3]!, body: m[5]! });
      continue;
    }
    m = /^!([\w.]+) = !\{(.*)\}$/.exec(line);
    if (m) {
      named.set(m[1]!, m[2] ? m[2].split(', ').map((s) => Number(s.slice(1))) : []);
      continue;
    }
    m = /^define .*@([\w.$]+|"[^"]*")\(.*\)(.*)\{$/.exec(line);
    if (m) {
      const dbg = /!dbg !(\d+)/.exec(m[2]!);
      cur = { name: m[1]!, dbg: dbg ? Number(dbg[1]) : null, insts: [] };
      functions.push(cur);
      continue;
    }
    m = /^@([\w.$]+) = .*global/.exec(line);
    if (m) {
      const ids = [...line.matchAll(/!dbg !(\d+)/g)].map((x) => Number(x[1]));
      if (ids.length) globalDbg.set(m[1]!, ids);
    }
  }
  return { nodes, named, functions, globalDbg, text };
}

const fieldCache = new Map<string, Map<string, string>>();

/** `key: value` fields of a specialised node body (top-level commas only). */
export function fields(body: string): Map<string, string> {
  let out = fieldCache.get(body);
  if (out) return out;
  if (fieldCache.size > 100_000) fieldCache.clear();
  out = parseFields(body);
  fieldCache.set(body, out);
  return out;
}

function parseFields(body: string): Map<string, string> {
  const out = new Map<string, string>();
  let depth = 0;
  let inStr = false;
  let start = 0;
  const push = (end: number) => {
    const part = body.slice(start, end).trim();
    const colon = part.indexOf(': ');
    if (colon > 0) out.set(part.slice(0, colon), part.slice(colon + 2));
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      push(i);
      start = i + 1;
    }
  }
  push(body.length);
  return out;
}

/** A quoted llvm-dis string field to a byte string (`\\` and `\XX` escapes decoded). */
export function unquote(s: string | undefined): string {
  if (s === undefined) return '';
  return s.slice(1, -1).replace(/\\(\\|[0-9A-Fa-f]{2})/g, (_, h: string) => (h === '\\' ? h : String.fromCharCode(parseInt(h, 16))));
}

/** `!12` → 12, `null`/undefined → null. */
export function ref(s: string | undefined): number | null {
  return s && s.startsWith('!') && /^!\d+$/.test(s) ? Number(s.slice(1)) : null;
}
