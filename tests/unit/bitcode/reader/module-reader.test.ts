/** The module reader on C compiled by clang 14/16/19: globals, functions, types, module strings. */
import fs from 'node:fs';
import { BitReader } from '../../../../src/bitcode/bitstream.js';
import { BitstreamCursor, EntryKind } from '../../../../src/bitcode/cursor.js';
import { unwrapBitcode } from '../../../../src/bitcode/wrapper.js';
import { BlockId, ValueSymtabCode } from '../../../../src/bitcode/reader/ids.js';
import {
  ConstantData,
  ConstantExpr,
  ConstantInt,
  ConstantPointerNull,
  ConstantStruct,
  Flag,
  Linkage,
  Opcode,
  PointerType,
  StructType,
  TypeKind,
  ValueKind,
  type Module,
  type Type,
} from '../../../../src/ir/index.js';
import { LLVM_VERSIONS, Workdir, decode, globalVar, type LlvmVersion } from './module-harness.js';

const SOURCE = `
struct node { int value; struct node *next; };
struct pair { const char *name; int *where; };
static int counter = 3;
int table[4] = {10, 20, 30, 40};
const char *greeting = "hello, world";
char letters[] = "xyz";
struct node second = {2, 0};
struct node first = {1, &second};
struct pair entry = {"entry", &table[2]};
int *past = table + 3;
extern int imported;
__thread int per_thread = 5;
static void helper(struct node *n) { n->value += counter++ + imported; }
int sum(struct node *n) { int s = 0; for (; n; n = n->next) { helper(n); s += n->value; } return s; }
int external_fn(int);
int main(void) { return sum(&first) + external_fn(table[1]) + *past + entry.name[0] + per_thread; }
`;

function unBitcast(c: ConstantExpr): ConstantExpr {
  expect(c.opcode).toBe(Opcode.BitCast);
  return c.ops[0] as ConstantExpr;
}

function typeOf(m: Module, name: string): Type {
  return m.getGlobal(name)!.type;
}

function llLine(ll: string, prefix: string): string {
  const line = ll.split('\n').find((l) => l.startsWith(prefix));
  if (line === undefined) throw new Error(`no line starting with ${prefix}`);
  return line;
}

describe.each(LLVM_VERSIONS)('clang-%i', (v: LlvmVersion) => {
  const wd = new Workdir();
  afterAll(() => wd.remove());

  describe.each([['-O0', '-g'], ['-O2']])('%s', (...flags: string[]) => {
    const bc = wd.clang(v, SOURCE, flags);
    const m = decode(bc);
    const ll = wd.dis(v, bc);

    it('reads the module strings as llvm-dis prints them', () => {
      expect(`source_filename = "${m.sourceFileName}"`).toBe(llLine(ll, 'source_filename = '));
      expect(`target datalayout = "${m.dataLayout}"`).toBe(llLine(ll, 'target datalayout = '));
      expect(`target triple = "${m.targetTriple}"`).toBe(llLine(ll, 'target triple = '));
      expect(m.producer).toMatch(new RegExp(`^LLVM${v}\\.`));
      expect(m.source).toBe(bc);
    });

    it('uses typed pointers exactly for LLVM 14', () => {
      expect(m.typedPointers).toBe(v === 14);
      const t = typeOf(m, 'table') as PointerType;
      expect(t.kind).toBe(TypeKind.Pointer);
      expect(t.isOpaque).toBe(v !== 14);
      if (v === 14) expect(t.pointee).toBe(globalVar(m, 'table').valueType);
    });

    it('reads global variables with their linkage and initializers', () => {
      const table = globalVar(m, 'table');
      expect(table.linkage).toBe(Linkage.External);
      const init = table.initializer as ConstantData;
      expect(init.vkind).toBe(ValueKind.ConstantData);
      expect(init.elements).toEqual([10n, 20n, 30n, 40n]);

      const letters = globalVar(m, 'letters').initializer as ConstantData;
      expect(String.fromCharCode(...letters.elements.map(Number))).toBe('xyz\0');

      expect(globalVar(m, 'imported').initializer).toBeNull();
      expect(globalVar(m, 'imported').isDeclaration).toBe(true);
      expect(globalVar(m, 'per_thread').threadLocal).not.toBe(0);

      // The string literal is a private unnamed_addr constant, referenced from @greeting.
      const greeting = globalVar(m, 'greeting').initializer!;
      const str = m.globals.find((g) => g.linkage === Linkage.Private && g.initializer instanceof ConstantData && g.isConstantGlobal)!;
      expect(String.fromCharCode(...(str.initializer as ConstantData).elements.map(Number))).toMatch(/^(hello, world|entry)\0$/);
      if (v === 14) {
        // i8* getelementptr inbounds ([13 x i8], [13 x i8]* @.str, i64 0, i64 0)
        const gep = greeting as ConstantExpr;
        expect(gep.opcode).toBe(Opcode.GetElementPtr);
        expect(gep.ops[0]!.vkind).toBe(ValueKind.GlobalVariable);
      } else {
        expect(greeting.vkind).toBe(ValueKind.GlobalVariable);
      }
    });

    it('reads struct initializers that point to other globals', () => {
      const first = globalVar(m, 'first').initializer as ConstantStruct;
      expect(first.vkind).toBe(ValueKind.ConstantStruct);
      expect((first.elements[0] as ConstantInt).value).toBe(1n);
      expect(first.elements[1]).toBe(globalVar(m, 'second'));
      const second = globalVar(m, 'second').initializer as ConstantStruct;
      expect(second.elements[1]).toBeInstanceOf(ConstantPointerNull);

      // &table[2] and table + 3: clang emits byte-offset GEPs into @table (through bitcasts of
      // typed pointers in LLVM 14): i32* bitcast (i8* getelementptr (i8, i8* bitcast (@table), 8)),
      // which -O2 may fold into getelementptr inbounds ([4 x i32], @table, 0, 3).
      const where = (globalVar(m, 'entry').initializer as ConstantStruct).elements[1] as ConstantExpr;
      const past = globalVar(m, 'past').initializer as ConstantExpr;
      const table = globalVar(m, 'table');
      for (const [outer, offset] of [[where, 8n], [past, 12n]] as const) {
        const gep = outer.opcode === Opcode.BitCast ? unBitcast(outer) : outer;
        expect(gep.opcode).toBe(Opcode.GetElementPtr);
        expect(gep.gep!.inRangeIndex).toBe(-1);
        const last = (gep.ops[gep.ops.length - 1] as ConstantInt).value;
        if (gep.gep!.sourceElementType === table.valueType) {
          // -O2 may fold it to getelementptr inbounds ([4 x i32], @table, 0, i)
          expect(gep.ops[0]).toBe(table);
          expect(gep.flags & Flag.InBounds).toBe(Flag.InBounds);
          expect(last * 4n).toBe(offset);
        } else {
          expect(gep.gep!.sourceElementType.isInteger(8)).toBe(true);
          expect(v === 14 ? unBitcast(gep.ops[0] as ConstantExpr) : gep.ops[0]).toBe(table);
          expect(last).toBe(offset);
        }
        expect(outer.type).toBe(globalVar(m, 'past').valueType);
      }
    });

    it('reads functions: declarations, definitions, types, linkage', () => {
      const main = m.getFunction('main')!;
      expect(main.hasBody).toBe(true);
      expect(main.blocks.length).toBeGreaterThan(0);
      expect(main.functionType.ret.isInteger(32)).toBe(true);
      expect(main.functionType.params).toHaveLength(0);
      const ext = m.getFunction('external_fn')!;
      expect(ext.isDeclaration).toBe(true);
      expect(ext.functionType.params.map((p) => p.isInteger(32))).toEqual([true]);
      const sum = m.getFunction('sum')!;
      expect(sum.functionType.params[0]!.isPointer()).toBe(true);
      const helper = m.getFunction('helper');
      if (flags[0] === '-O0') expect(helper!.linkage).toBe(Linkage.Internal);
      // Every define/declare of llvm-dis is there, with or without a body.
      const defs = [...ll.matchAll(/^define .*?@([\w.]+)\(/gm)].map((x) => x[1]);
      const decls = [...ll.matchAll(/^declare .*?@([\w.]+)\(/gm)].map((x) => x[1]);
      expect(m.functions.filter((f) => f.hasBody).map((f) => f.name).sort()).toEqual(defs.sort());
      expect(m.functions.filter((f) => !f.hasBody).map((f) => f.name).sort()).toEqual(decls.sort());
    });

    it('reads identified struct types with their bodies', () => {
      const node = m.structTypes.find((s) => s.name === 'struct.node')!;
      expect(node).toBeDefined();
      expect(node.isOpaque).toBe(false);
      expect(node.elements[0]!.isInteger(32)).toBe(true);
      const next = node.elements[1] as PointerType;
      expect(next.isPointer()).toBe(true);
      // Recursive through a typed pointer in LLVM 14.
      if (v === 14) expect(next.pointee).toBe(node);
      expect(globalVar(m, 'first').valueType).toBe(node);
      for (const s of m.structTypes) expect(s).toBeInstanceOf(StructType);
      const declared = [...ll.matchAll(/^%([\w.]+) = type /gm)].map((x) => x[1]);
      expect(m.structTypes.map((s) => s.name)).toEqual(expect.arrayContaining(declared));
    });

    it('matches function bodies to function records in module order', () => {
      // Each body's !dbg subprogram (with -g) names its function.
      if (flags.includes('-g')) {
        for (const fn of m.functions.filter((f) => f.hasBody)) {
          const sp = fn.subprogram as unknown as { name: string } | null;
          expect(sp?.name).toBe(fn.name);
        }
      }
      // LLVM's own function offsets (module VST FNENTRY) are in value-id order too.
      expect(fnEntryOrder(bc)).toEqual([...fnEntryOrder(bc)].sort((a, b) => a - b));
    });
  });
});

/** Value ids of the module VST's FNENTRY records, sorted by the function block offset. */
function fnEntryOrder(bcPath: string): number[] {
  const buf = new Uint8Array(fs.readFileSync(bcPath));
  const { start, end } = unwrapBitcode(buf);
  const r = new BitReader(buf, start, end);
  r.seekBit(32);
  const c = new BitstreamCursor(r);
  const entries: [number, number][] = [];
  const walk = (inModule: boolean): void => {
    for (;;) {
      const e = c.advance();
      if (e.kind === EntryKind.EndBlock) return;
      if (e.kind === EntryKind.SubBlock) {
        if (!inModule && e.id === BlockId.Module) {
          c.enterSubBlock(e.id);
          walk(true);
        } else if (inModule && e.id === BlockId.ValueSymtab) {
          c.enterSubBlock(e.id);
          for (let x = c.advance(); x.kind !== EntryKind.EndBlock; x = c.advance()) {
            const rec = c.readRecord(x.id);
            if (rec.code === ValueSymtabCode.FnEntry) entries.push([rec.ops[1]!, rec.ops[0]!]);
          }
        } else c.skipBlock();
        continue;
      }
      c.skipRecord(e.id);
    }
  };
  walk(false);
  expect(entries.length).toBeGreaterThan(1);
  return entries.sort((a, b) => a[0] - b[0]).map(([, id]) => id);
}
