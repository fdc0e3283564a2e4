/**
 * Differential test: the cursor's view of real clang bitcode must match
 * `llvm-bcanalyzer -dump -non-symbolic -dump-blockinfo -show-binary-blobs`
 * exactly: the same tree of blocks (id, NumWords, abbreviation width), and in
 * every block the same sequence of records with the same code, abbreviation
 * id, operand values (all 64 bits) and blob bytes.  METADATA_STRINGS blobs,
 * which bcanalyzer prints decoded, are compared string by string.
 */
import { BitReader } from '../../../src/bitcode/bitstream.js';
import { u64, type BitcodeRecord } from '../../../src/bitcode/cursor.js';
import { walkBitstream, type DumpNode } from '../../../src/bitcode/dump.js';
import { readWrapperHeader } from '../../../src/bitcode/wrapper.js';
import {
  CONFIGS,
  LLVM_VERSIONS,
  PROGRAMS,
  clang,
  compileToBitcode,
  haveCommand,
  llvmTool,
  makeTmpDir,
  removeDir,
  run,
  type LlvmVersion,
} from './toolchain.js';
import fs from 'node:fs';
import path from 'node:path';
import { BitWriter } from '../../support/bitwriter.js';

// ---------------------------------------------------------------------------
// Parsing llvm-bcanalyzer -dump output

interface AnBlock {
  kind: 'block';
  id: number;
  numWords: number;
  width: number;
  children: AnNode[];
  line: number;
}
interface AnRecord {
  kind: 'record';
  code: number;
  abbrev: number | undefined;
  ops: bigint[];
  blob?: Uint8Array;
  strings?: Uint8Array[];
  line: number;
}
type AnNode = AnBlock | AnRecord;

interface AnDump {
  wrapper?: { offset: number; size: number };
  top: AnNode[];
}

/** Inverse of LLVM's raw_ostream::write_escaped(..., UseHexEscapes=true). */
function unescape(s: string, line: number): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 0x5c) {
      if (c > 0x7e || c < 0x20) throw new Error(`line ${line}: unexpected raw character ${c} in escaped string`);
      out.push(c);
      continue;
    }
    const n = s[++i];
    if (n === '\\') out.push(0x5c);
    else if (n === 't') out.push(9);
    else if (n === 'n') out.push(10);
    else if (n === '"') out.push(0x22);
    else if (n === 'x') {
      out.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else throw new Error(`line ${line}: unknown escape \\${n}`);
  }
  return new Uint8Array(out);
}

function parseBcanalyzer(text: string): AnDump {
  const lines = text.split('\n');
  const dump: AnDump = { top: [] };
  const stack: AnNode[][] = [dump.top];
  const cur = (): AnNode[] => stack[stack.length - 1];
  const reBlock = /^\s*<(\w+)(?: BlockID=(\d+))? NumWords=(\d+) BlockCodeSize=(\d+)>$/;
  const reEnd = /^\s*<\/(\w+)>$/;
  const reRec = /^\s*<(\w+)((?: [A-Za-z]+\d*=-?\d+)*)(.*?)\/>(.*)$/;
  const reWrapper = /^<BITCODE_WRAPPER_HEADER Magic=0x[0-9a-f]+ Version=0x[0-9a-f]+ Offset=0x([0-9a-f]+) Size=0x([0-9a-f]+) CPUType=0x[0-9a-f]+\/>$/;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const ln = i + 1;
    if (stack.length === 1 && (line === '' || line.startsWith('Summary of'))) break;
    let m = reWrapper.exec(line);
    if (m) {
      dump.wrapper = { offset: parseInt(m[1], 16), size: parseInt(m[2], 16) };
      continue;
    }
    m = reBlock.exec(line);
    if (m) {
      let id: number;
      if (m[2] !== undefined) id = Number(m[2]);
      else {
        const u = /^UnknownBlock(\d+)$/.exec(m[1]);
        if (!u) throw new Error(`line ${ln}: block without id: ${line}`);
        id = Number(u[1]);
      }
      const b: AnBlock = { kind: 'block', id, numWords: Number(m[3]), width: Number(m[4]), children: [], line: ln };
      cur().push(b);
      stack.push(b.children);
      continue;
    }
    if (reEnd.test(line)) {
      if (stack.length === 1) throw new Error(`line ${ln}: unbalanced block end`);
      stack.pop();
      continue;
    }
    m = reRec.exec(line);
    if (m) {
      let code: number | undefined;
      const u = /^UnknownCode(\d+)$/.exec(m[1]);
      if (u) code = Number(u[1]);
      let abbrev: number | undefined;
      const ops: bigint[] = [];
      for (const attr of m[2].trim().split(' ').filter((x) => x !== '')) {
        const [k, v] = attr.split('=');
        if (k === 'codeid') code = Number(v);
        else if (k === 'abbrevid') abbrev = Number(v);
        else if (k === `op${ops.length}`) ops.push(BigInt.asUintN(64, BigInt(v)));
        else throw new Error(`line ${ln}: unexpected attribute ${attr}`);
      }
      if (code === undefined) throw new Error(`line ${ln}: record without a code: ${line}`);
      const rec: AnRecord = { kind: 'record', code, abbrev, ops, line: ln };
      const rest = m[4];
      let bm: RegExpExecArray | null;
      if (rest === '' || rest.startsWith(" record string = '")) {
        // nothing to compare (the string is the operands)
      } else if ((bm = /^ blob data = '(.*)'$/.exec(rest))) {
        rec.blob = unescape(bm[1], ln);
      } else if ((bm = /^ num-strings = (\d+) \{$/.exec(rest))) {
        rec.strings = [];
        for (;;) {
          const l = lines[++i];
          if (l === undefined) throw new Error(`line ${ln}: unterminated num-strings list`);
          if (/^\s*\}$/.test(l)) break;
          const sm = /^\s*'(.*)'$/.exec(l);
          if (!sm) throw new Error(`line ${i + 1}: bad metadata string line: ${l}`);
          rec.strings.push(unescape(sm[1], i + 1));
        }
      } else {
        throw new Error(`line ${ln}: unexpected text after record: ${rest}`);
      }
      cur().push(rec);
      continue;
    }
    throw new Error(`line ${ln}: unrecognized bcanalyzer output: ${line}`);
  }
  if (stack.length !== 1) throw new Error('bcanalyzer output ended inside a block');
  return dump;
}

// ---------------------------------------------------------------------------
// Comparison

interface Stats {
  blocks: number;
  records: number;
  ops: number;
  bigOps: number;
  blobs: number;
  mdStrings: number;
  abbreviated: number;
}

const METADATA_BLOCK_ID = 15;
const METADATA_STRINGS = 35;

function decodeMetadataStrings(count: number, offset: number, blob: Uint8Array): Uint8Array[] {
  const r = new BitReader(blob, 0, offset);
  const out: Uint8Array[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    const len = r.readVBR(6);
    out.push(blob.subarray(p, p + len));
    p += len;
  }
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function compareTrees(ours: DumpNode[], theirs: AnNode[], where: string, blockId: number, errs: string[], st: Stats): void {
  if (errs.length > 20) return;
  if (ours.length !== theirs.length) {
    errs.push(`${where}: ${ours.length} entries, bcanalyzer has ${theirs.length}`);
  }
  const n = Math.min(ours.length, theirs.length);
  for (let i = 0; i < n && errs.length <= 20; i++) {
    const o = ours[i];
    const t = theirs[i];
    const at = `${where}[${i}] (bcanalyzer line ${t.line})`;
    if (o.kind !== t.kind) {
      errs.push(`${at}: ours is a ${o.kind}, bcanalyzer's is a ${t.kind}`);
      return;
    }
    if (o.kind === 'block' && t.kind === 'block') {
      st.blocks++;
      if (o.blockId !== t.id || o.numWords !== t.numWords || o.abbrevWidth !== t.width) {
        errs.push(
          `${at}: block ${o.blockId} words=${o.numWords} width=${o.abbrevWidth} vs ${t.id} words=${t.numWords} width=${t.width}`,
        );
        return;
      }
      compareTrees(o.children, t.children, `${where}/${o.blockId}#${i}`, o.blockId, errs, st);
      continue;
    }
    if (o.kind !== 'record' || t.kind !== 'record') continue;
    const rec = o.record;
    st.records++;
    st.ops += rec.ops.length;
    st.bigOps += rec.big?.size ?? 0;
    if (rec.abbrevId !== 3) st.abbreviated++;
    const ourAbbrev = rec.abbrevId === 3 ? undefined : rec.abbrevId;
    if (rec.code !== t.code || ourAbbrev !== t.abbrev) {
      errs.push(`${at}: code ${rec.code} abbrev ${ourAbbrev} vs code ${t.code} abbrev ${t.abbrev}`);
      continue;
    }
    if (rec.ops.length !== t.ops.length) {
      errs.push(`${at}: code ${rec.code}: ${rec.ops.length} operands vs ${t.ops.length}`);
      continue;
    }
    for (let k = 0; k < rec.ops.length; k++) {
      const mine = u64(rec, k);
      if (mine !== t.ops[k]) {
        errs.push(`${at}: code ${rec.code} op${k} = ${mine}, bcanalyzer says ${t.ops[k]}`);
        break;
      }
      if (rec.big === undefined && !Number.isSafeInteger(rec.ops[k])) errs.push(`${at}: op${k} not exact`);
    }
    if (blockId === METADATA_BLOCK_ID && rec.code === METADATA_STRINGS) {
      if (rec.blob === undefined || t.strings === undefined) {
        errs.push(`${at}: METADATA_STRINGS without blob/strings`);
        continue;
      }
      const strs = decodeMetadataStrings(rec.ops[0], rec.ops[1], rec.blob);
      st.mdStrings += strs.length;
      if (strs.length !== t.strings.length || strs.some((s, j) => !sameBytes(s, t.strings![j]))) {
        errs.push(`${at}: metadata strings differ`);
      }
      continue;
    }
    if ((rec.blob === undefined) !== (t.blob === undefined)) {
      errs.push(`${at}: blob presence differs (ours ${rec.blob !== undefined})`);
    } else if (rec.blob !== undefined && t.blob !== undefined) {
      st.blobs++;
      if (!sameBytes(rec.blob, t.blob)) errs.push(`${at}: blob bytes differ (${rec.blob.length} vs ${t.blob.length})`);
    }
  }
}

function findRecordWithOps(nodes: DumpNode[]): BitcodeRecord | undefined {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i];
    if (n.kind === 'record' && n.record.ops.length > 0 && n.record.blob === undefined) return n.record;
    if (n.kind === 'block') {
      const r = findRecordWithOps(n.children);
      if (r) return r;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------

for (const v of LLVM_VERSIONS) {
  const available = haveCommand(clang(v)) && haveCommand(llvmTool(v, 'llvm-bcanalyzer'), ['--help']);
  const d = available ? describe : describe.skip;
  d(`bitstream vs llvm-bcanalyzer-${v}`, () => {
    let dir = '';
    const files = new Map<string, Uint8Array>();
    const total: Stats = { blocks: 0, records: 0, ops: 0, bigOps: 0, blobs: 0, mdStrings: 0, abbreviated: 0 };

    beforeAll(async () => {
      dir = makeTmpDir(`bcdiff${v}`);
      await Promise.all(
        CONFIGS.map(async (cfg) => {
          const prog = PROGRAMS[cfg.program];
          const bc = await compileToBitcode(clang(v as LlvmVersion), dir, prog.file, prog.source, `${cfg.label}.bc`, cfg.flags);
          files.set(cfg.label, bc);
        }),
      );
    });
    afterAll(() => {
      if (dir) removeDir(dir);
    });

    for (const cfg of CONFIGS) {
      test(cfg.label, async () => {
        const bc = files.get(cfg.label);
        expect(bc).toBeDefined();
        const text = await run(llvmTool(v, 'llvm-bcanalyzer'), [
          '-dump',
          '-non-symbolic',
          '-dump-blockinfo',
          '-show-binary-blobs',
          path.join(dir, `${cfg.label}.bc`),
        ]);
        const theirs = parseBcanalyzer(text);
        const ours = walkBitstream(bc!);
        const hdr = readWrapperHeader(bc!);
        expect(hdr && { offset: hdr.offset, size: hdr.size }).toEqual(theirs.wrapper ?? undefined);
        if (cfg.label.includes('wrapped')) expect(hdr).toBeDefined();
        const errs: string[] = [];
        const st: Stats = { blocks: 0, records: 0, ops: 0, bigOps: 0, blobs: 0, mdStrings: 0, abbreviated: 0 };
        compareTrees(ours, theirs.top, 'top', -1, errs, st);
        expect(errs).toEqual([]);
        expect(st.blocks).toBeGreaterThan(5);
        expect(st.records).toBeGreaterThan(50);
        // The comparison must notice a single wrong operand value.
        const victim = findRecordWithOps(ours);
        expect(victim).toBeDefined();
        victim!.ops[victim!.ops.length - 1] += 1;
        victim!.big?.delete(victim!.ops.length - 1);
        const errs2: string[] = [];
        compareTrees(ours, theirs.top, 'top', -1, errs2, { ...st });
        expect(errs2.length).toBe(1);
        for (const k of Object.keys(total) as (keyof Stats)[]) total[k] += st[k];
      });
    }

    test('the corpus exercised 64-bit operands, blobs, metadata strings and abbreviations', () => {
      expect(total.bigOps).toBeGreaterThan(0);
      expect(total.blobs).toBeGreaterThan(0);
      expect(total.mdStrings).toBeGreaterThan(0);
      expect(total.abbreviated).toBeGreaterThan(100);
      expect(total.records).toBeGreaterThan(2000);
    });
  });
}

/** Hand-built streams exercise encodings clang rarely emits (char6, Fixed(0)/VBR(0), 64-bit literals, ...). */
function handBuilt(): Uint8Array {
  const w = new BitWriter();
  w.magic();
  w.enterBlock(100, 3);
  w.enterBlock(0, 2);
  w.setBID(101);
  w.defineAbbrev([{ lit: 1 }, 'array', 'char6']);
  w.defineAbbrev([{ vbr: 6 }, { fixed: 0 }, { vbr: 0 }, { lit: 2n ** 64n - 1n }, { fixed: 32 }, { vbr: 32 }]);
  w.endBlock();
  for (let k = 0; k < 3; k++) {
    w.enterBlock(101, 5);
    w.abbrevRecord(4, [1, ...'hello_World.09']);
    w.abbrevRecord(5, [1000 + k, 0, 0, 0, 0xffffffff, 2n ** 63n + BigInt(k)]);
    const a = w.defineAbbrev([{ fixed: 4 }, 'array', { vbr: 3 }]);
    w.abbrevRecord(a, [9, 0, 3, 4, 2n ** 64n - 1n, 12345678901234n]);
    const b = w.defineAbbrev([{ lit: 7 }, { vbr: 5 }, 'blob']);
    w.abbrevRecord(b, [7, 3], new Uint8Array([0, 1, 2, 0x5c, 0x22, 0x27, 0x0a, 0x09, 0x7f, 0x80, 0xff]));
    w.abbrevRecord(b, [7, 0], new Uint8Array(0));
    const c = w.defineAbbrev([{ lit: 8 }, 'char6', { fixed: 1 }, 'array', { fixed: 8 }]);
    w.abbrevRecord(c, [8, 'Z', 1, 255, 0, 128]);
    w.unabbrevRecord(12, [2n ** 64n - 1n, 0, 2n ** 53n, 2n ** 53n - 1n]);
    w.enterBlock(102, 2);
    w.unabbrevRecord(3);
    w.endBlock();
    w.endBlock();
  }
  w.endBlock();
  return w.finish();
}

const bcanalyzer19 = llvmTool(19, 'llvm-bcanalyzer');
(haveCommand(bcanalyzer19, ['--help']) ? test : test.skip)('hand-built stream with every operand encoding matches llvm-bcanalyzer-19', async () => {
  const dir = makeTmpDir('handbuilt');
  try {
    const buf = handBuilt();
    const file = path.join(dir, 'hand.bc');
    fs.writeFileSync(file, buf);
    const text = await run(bcanalyzer19, ['-dump', '-non-symbolic', '-dump-blockinfo', '-show-binary-blobs', file]);
    const theirs = parseBcanalyzer(text);
    const errs: string[] = [];
    const st: Stats = { blocks: 0, records: 0, ops: 0, bigOps: 0, blobs: 0, mdStrings: 0, abbreviated: 0 };
    compareTrees(walkBitstream(buf), theirs.top, 'top', -1, errs, st);
    expect(errs).toEqual([]);
    expect(st.records).toBe(1 + 3 * 8);
    expect(st.bigOps).toBe(3 * 5);
    expect(st.blobs).toBe(6);
  } finally {
    removeDir(dir);
  }
});
