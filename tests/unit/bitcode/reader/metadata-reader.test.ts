/**
 * The metadata reader against llvm-dis, over the clang-14/16/19 -g corpus (fixtures/dis/build,
 * -O0 and -O2): named metadata, node counts by kind, subprograms, local variables, files,
 * expressions, global and function !dbg, every instruction's attachments and debug location
 * (with inlinedAt chains), and that each llvm-dis node number maps to exactly one node.
 * Also the large program (fixtures/large) and a program compiled here for what the corpus
 * lacks (a lexical block file, wide enumerators).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DIExpression,
  DILocation,
  DISubprogram,
  DILocalVariable,
  DIFile,
  GenericMDNode,
  MDKind,
  MDString,
  formatDIExpression,
  scopeSubprogram,
  type Metadata,
} from '../../../../src/ir/metadata.js';
import { fields, parseLl, ref, unquote, walkBitcode, type LlModule, type Walked } from './metadata-harness.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const BUILD = path.join(ROOT, 'fixtures/dis/build');

function fixtures(): string[] {
  const have = () => (fs.existsSync(BUILD) ? fs.readdirSync(BUILD).filter((f) => f.endsWith('.bc')) : []);
  if (have().length === 0) execFileSync('node', [path.join(ROOT, 'scripts/build-fixtures.mjs')], { stdio: 'ignore' });
  return have().sort();
}

const KIND_NAMES: Partial<Record<MDKind, string>> = {
  [MDKind.Tuple]: '',
  [MDKind.File]: 'DIFile',
  [MDKind.CompileUnit]: 'DICompileUnit',
  [MDKind.Subprogram]: 'DISubprogram',
  [MDKind.LexicalBlock]: 'DILexicalBlock',
  [MDKind.LexicalBlockFile]: 'DILexicalBlockFile',
  [MDKind.LocalVariable]: 'DILocalVariable',
  [MDKind.Label]: 'DILabel',
};

function kindName(m: Metadata): string | undefined {
  return m.mdkind === MDKind.Generic ? (m as GenericMDNode).nodeName : KIND_NAMES[m.mdkind];
}

function countBy<T>(items: Iterable<T>, key: (t: T) => string | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const it of items) {
    const k = key(it);
    if (k !== undefined) out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1));

/**
 * `name=value` of a DIEnumerator record: [flags, value, name] with the value rotated
 * (v < 0 ? ~(v << 1) : v << 1), or with flag 4 [flags, bit width, name, words...] with each
 * word sign-folded (v < 0 ? (-v << 1) | 1 : v << 1).
 */
function enumerator(n: GenericMDNode): string {
  const exact = (i: number) => n.big?.get(i) ?? BigInt(n.rawOps[i]!);
  const unrotate = (u: bigint) => (u & 1n ? ~(u >> 1n) : u >> 1n);
  const unfold = (u: bigint) => (u === 1n ? -(1n << 63n) : u & 1n ? -(u >> 1n) : u >> 1n);
  const flags = n.rawOps[0]!;
  const name = (n.refs[2] as MDString).value;
  let value: bigint;
  let bits = 64n;
  if (flags & 4) {
    bits = BigInt(n.rawOps[1]!);
    value = 0n;
    for (let i = n.rawOps.length - 1; i >= 3; i--) value = (value << 64n) | BigInt.asUintN(64, unfold(exact(i)));
  } else {
    value = unrotate(exact(1));
  }
  return `${name}=${flags & 2 ? BigInt.asUintN(Number(bits), value) : BigInt.asIntN(Number(bits), value)}`;
}

/** Checks that llvm-dis node numbers and decoded nodes correspond one to one. */
class Correspondence {
  private readonly mine = new Map<number, Metadata>();
  private readonly theirs = new Map<Metadata, number>();
  constructor(private readonly where: string) {}
  bind(id: number, node: Metadata): void {
    const a = this.mine.get(id);
    const b = this.theirs.get(node);
    if ((a !== undefined && a !== node) || (b !== undefined && b !== id)) {
      throw new Error(`${this.where}: !${id} maps to two nodes (or a node to two numbers)`);
    }
    this.mine.set(id, node);
    this.theirs.set(node, id);
  }
}

function spName(ll: LlModule, scopeId: number | null): string {
  for (let id = scopeId, guard = 0; id !== null && guard < 100; guard++) {
    const n = ll.nodes.get(id)!;
    const f = fields(n.body);
    if (n.kind === 'DISubprogram') return unquote(f.get('name'));
    id = ref(f.get('scope'));
  }
  return '?';
}

/** Compares an llvm-dis DILocation (and its inlinedAt chain) with a decoded one. */
function checkLocation(ll: LlModule, corr: Correspondence, id: number, loc: Metadata | null, where: string): void {
  const n = ll.nodes.get(id);
  if (!n || n.kind !== 'DILocation') throw new Error(`${where}: !${id} is not a DILocation`);
  if (!loc || loc.mdkind !== MDKind.Location) throw new Error(`${where}: expected a location for !${id}`);
  const l = loc as DILocation;
  const f = fields(n.body);
  const got = `${l.line}:${l.column} in ${scopeSubprogram(l.scope)?.name}`;
  const want = `${Number(f.get('line') ?? 0)}:${Number(f.get('column') ?? 0)} in ${spName(ll, ref(f.get('scope')))}`;
  if (got !== want) throw new Error(`${where}: location ${got}, llvm-dis says ${want}`);
  corr.bind(ref(f.get('scope'))!, l.scope!);
  const ia = ref(f.get('inlinedAt'));
  if (ia === null) {
    if (l.inlinedAt) throw new Error(`${where}: unexpected inlinedAt`);
  } else {
    checkLocation(ll, corr, ia, l.inlinedAt, `${where} inlined at`);
  }
}

function checkFile(bcPath: string, llPath = bcPath.replace(/\.bc$/, '.ll')): void {
  const file = path.basename(bcPath);
  const bc = new Uint8Array(fs.readFileSync(bcPath));
  const ll = parseLl(fs.readFileSync(llPath, 'utf8'));
  const w: Walked = walkBitcode(bc, file);
  const corr = new Correspondence(file);

  // Named metadata: same names, same nodes.
  expect(w.module.namedMetadata.map((n) => n.name).sort()).toEqual([...ll.named.keys()].sort());
  for (const nm of w.module.namedMetadata) {
    const ids = ll.named.get(nm.name)!;
    expect(nm.ops.length).toBe(ids.length);
    nm.ops.forEach((node, i) => corr.bind(ids[i]!, node));
  }
  for (const required of ['llvm.dbg.cu', 'llvm.module.flags', 'llvm.ident']) expect(ll.named.has(required)).toBe(true);

  // Numbered nodes by kind (locations come mostly from DEBUG_LOC records; compared below).
  const theirCounts = countBy(ll.nodes.values(), (n) => (n.kind === 'DILocation' || n.kind === 'DIExpression' ? undefined : n.kind));
  const myCounts = countBy(w.nodes, kindName);
  expect(sorted(myCounts)).toEqual(sorted(theirCounts));

  // Subprograms, variables, files, basic types: same multisets of their fields.
  const llOf = (kind: string) => [...ll.nodes.values()].filter((n) => n.kind === kind).map((n) => fields(n.body));
  const mine = <T extends Metadata>(k: MDKind) => w.nodes.filter((n) => n.mdkind === k) as T[];
  const fileOf = (f: Map<string, string>) => {
    const id = ref(f.get('file'));
    return id === null ? '' : unquote(fields(ll.nodes.get(id)!.body).get('filename'));
  };
  const spKey = (name: string, linkage: string, line: number, scopeLine: number, file: string) =>
    `${name}|${linkage}|${line}|${scopeLine}|${file}`;
  expect(
    mine<DISubprogram>(MDKind.Subprogram)
      .map((s) => spKey(s.name, s.linkageName, s.line, s.scopeLine, (s.file as DIFile | null)?.filename ?? ''))
      .sort(),
  ).toEqual(
    llOf('DISubprogram')
      .map((f) => spKey(unquote(f.get('name')), unquote(f.get('linkageName')), Number(f.get('line') ?? 0), Number(f.get('scopeLine') ?? 0), fileOf(f)))
      .sort(),
  );
  expect(
    mine<DILocalVariable>(MDKind.LocalVariable)
      .map((v) => `${v.name}|${v.line}|${v.arg}|${scopeSubprogram(v.scope)?.name}`)
      .sort(),
  ).toEqual(
    llOf('DILocalVariable')
      .map((f) => `${unquote(f.get('name'))}|${Number(f.get('line') ?? 0)}|${Number(f.get('arg') ?? 0)}|${spName(ll, ref(f.get('scope')))}`)
      .sort(),
  );
  expect(
    mine<DIFile>(MDKind.File)
      .map((f) => `${f.filename}|${f.directory}`)
      .sort(),
  ).toEqual(
    llOf('DIFile')
      .map((f) => `${unquote(f.get('filename'))}|${unquote(f.get('directory'))}`)
      .sort(),
  );
  const basicName = (n: GenericMDNode) => (n.refs[2] as MDString | null)?.value ?? '';
  expect(
    w.nodes
      .filter((n) => n.mdkind === MDKind.Generic && (n as GenericMDNode).nodeName === 'DIBasicType')
      .map((n) => basicName(n as GenericMDNode))
      .sort(),
  ).toEqual(llOf('DIBasicType').map((f) => unquote(f.get('name'))).sort());

  // Enumerators keep their exact (wide) values.
  expect(
    w.nodes
      .filter((n) => n.mdkind === MDKind.Generic && (n as GenericMDNode).nodeName === 'DIEnumerator')
      .map((n) => enumerator(n as GenericMDNode))
      .sort(),
  ).toEqual(llOf('DIEnumerator').map((f) => `${unquote(f.get('name'))}=${f.get('value')}`).sort());

  // Expressions print as llvm-dis prints them.
  const theirExprs = new Set([...ll.text.matchAll(/!DIExpression\([^)]*\)/g)].map((m) => m[0]));
  const myExprs = new Set(w.nodes.filter((n) => n.mdkind === MDKind.Expression).map((n) => formatDIExpression(n as DIExpression)));
  expect([...myExprs].sort()).toEqual([...theirExprs].sort());

  // Global variables' !dbg.
  for (const [name, ids] of ll.globalDbg) {
    const gv = w.module.globals.find((g) => g.name === name)!;
    const dbg = gv.attachments.filter((a) => a.kind === 'dbg');
    expect(dbg.length).toBe(ids.length);
    dbg.forEach((a, i) => {
      expect(kindName(a.node)).toBe(ll.nodes.get(ids[i]!)!.kind);
      corr.bind(ids[i]!, a.node);
    });
  }

  // Functions: !dbg subprogram, and every instruction's attachments and location.
  expect(w.functions.map((f) => f.fn.name)).toEqual(ll.functions.map((f) => (f.name.startsWith('"') ? unquote(f.name) : f.name)));
  w.functions.forEach((wf, fi) => {
    const lf = ll.functions[fi]!;
    const where = `${file} @${lf.name}`;
    const sp = wf.fn.attachments.find((a) => a.kind === 'dbg')?.node ?? null;
    expect(sp === null).toBe(lf.dbg === null);
    if (sp && lf.dbg !== null) {
      corr.bind(lf.dbg, sp);
      expect((sp as DISubprogram).name).toBe(unquote(fields(ll.nodes.get(lf.dbg)!.body).get('name')));
      expect((sp as DISubprogram).unit?.mdkind).toBe(MDKind.CompileUnit);
    }
    if (wf.insts.length !== lf.insts.length) throw new Error(`${where}: ${wf.insts.length} instructions, llvm-dis has ${lf.insts.length}`);
    wf.insts.forEach((inst, i) => {
      const line = lf.insts[i]!;
      const theirs = [...line.matchAll(/, !([A-Za-z_.][\w.]*) !(\d+)/g)].map((m) => [m[1]!, Number(m[2])] as const);
      const dbg = theirs.find(([k]) => k === 'dbg');
      const others = theirs.filter(([k]) => k !== 'dbg');
      const at = `${where} instruction ${i} (${line.slice(0, 60)})`;
      if (dbg) checkLocation(ll, corr, dbg[1], wf.locs[i] ?? null, at);
      else if (wf.locs[i]) throw new Error(`${at}: unexpected debug location`);
      const mineAtt = inst.attachments ?? [];
      const kinds = (list: string[]) => list.sort().join(' ');
      if (kinds(mineAtt.map((a) => a.kind)) !== kinds(others.map(([k]) => k))) throw new Error(`${at}: attachments differ`);
      for (const [k, id] of others) corr.bind(id, mineAtt.find((a) => a.kind === k)!.node);
    });
  });
}

const LARGE = path.join(ROOT, 'fixtures/large/build');
test.each([14, 16, 19].flatMap((v) => ['O0', 'O2'].map((m) => `large.clang${v}.${m}.bc`)))('the large program: %s', (f) => {
  if (!fs.existsSync(path.join(LARGE, f))) execFileSync('node', [path.join(ROOT, 'scripts/build-fixtures.mjs'), '--only-large'], { stdio: 'ignore' });
  checkFile(path.join(LARGE, f));
});

describe('metadata reader vs llvm-dis on the -g corpus', () => {
  const files = fixtures();
  for (const v of [14, 16, 19]) {
    for (const mode of ['O0', 'O2']) {
      const group = files.filter((f) => f.includes(`.clang${v}.${mode}.`));
      test(`clang-${v} -${mode} (${group.length} files)`, () => {
        expect(group.length).toBeGreaterThan(0);
        for (const f of group) checkFile(path.join(BUILD, f));
      });
    }
  }
});

/** Constructs the corpus lacks: a lexical block file (code #included in a body), wide enumerators. */
const BODY_INC = `  s += k * 3;
  if (s > 100) { int q = s / 2; s -= q; }
`;
const MAIN_C = `enum Big { NEG = -5, HUGE = 0x7fffffffffffffffLL };
enum UBig { UHUGE = 0xffffffffffffffffULL };
struct B { unsigned a : 3; unsigned b : 5; long long c; };
union U { int i; float f; };
static int counter;
static inline int twice(int x) { return x + x; }
int f(int n, struct B *b, union U u) {
  int s = 0;
  for (int k = 0; k < n; k++) {
#include "body.inc"
  }
  int vla[n];
  for (int i = 0; i < n; i++) vla[i] = twice(i) + b->a;
  static int calls;
  calls++;
  counter += vla[n - 1] + u.i;
  if (n > 3) goto out;
  s++;
out:
  return s + (int)HUGE + (int)UHUGE;
}
int main(void) { struct B b = {1, 2, 3}; union U u = {4}; return f(5, &b, u); }
`;

describe('metadata reader vs llvm-dis on extra programs', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsklee-md-'));
    fs.writeFileSync(path.join(dir, 'body.inc'), BODY_INC);
    fs.writeFileSync(path.join(dir, 'main.c'), MAIN_C);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const v of [14, 16, 19]) {
    for (const opt of ['-O0', '-O2']) {
      test(`clang-${v} ${opt}`, () => {
        const bc = path.join(dir, `main.${v}${opt}.bc`);
        const bin = `/usr/lib/llvm-${v}/bin`;
        execFileSync(`${bin}/clang`, ['-g', opt, '-c', '-emit-llvm', '-w', 'main.c', '-o', bc], { cwd: dir });
        execFileSync(`${bin}/llvm-dis`, [bc, '-o', bc.replace(/\.bc$/, '.ll')]);
        expect(fs.readFileSync(bc.replace(/\.bc$/, '.ll'), 'utf8')).toContain('!DILexicalBlockFile(');
        checkFile(bc);
      });
    }
  }
});
