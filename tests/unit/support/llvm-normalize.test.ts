/**
 * The llvm-dis normaliser used by the differential tests, on real llvm-dis output from
 * the corpus (clang 14/16/19, -O0/-O2) and on hand-written snippets for the corner cases.
 */
import { readFileSync } from 'node:fs';
import { diffBodies, functionBodies, normalizeBody, unquoteName } from '../../support/llvm-normalize.js';
import { ensureFixturesBuilt, listFixtures, type FixtureBitcode } from '../../support/fixtures.js';

const all = listFixtures();
const pick = (name: string, clang: number, mode: 'O0' | 'O2'): FixtureBitcode => {
  const f = all.find((x) => x.name === name && x.clang === clang && x.mode === mode);
  if (!f) throw new Error(`no fixture ${name} clang${clang} ${mode}`);
  return f;
};
const read = (f: FixtureBitcode): string => readFileSync(f.llPath, 'utf8');

beforeAll(async () => {
  await ensureFixturesBuilt();
});

/**
 * Renames every local value and block label inside function bodies with a bijection
 * (`%N` → `%"tmp N"` / `%N` → `%r.<perm(N)>`), the way a printer with other names would.
 */
function renameLocals(ll: string, style: 'quoted' | 'permuted'): string {
  const lines = ll.split('\n');
  let inFn = false;
  const perm = (n: number): number => (n * 7919 + 13) % 100003;
  const name = (n: string): string => (style === 'quoted' ? `"tmp ${n}"` : `r.${perm(Number(n))}`);
  return lines
    .map((line) => {
      if (line.startsWith('define ')) {
        inFn = true;
        // parameters are named in the header
        return line.replace(/%([0-9]+)\b/g, (_m, n: string) => `%${name(n)}`);
      }
      if (!inFn) return line;
      if (line.startsWith('}')) {
        inFn = false;
        return line;
      }
      const label = /^([0-9]+):(.*)$/.exec(line);
      if (label) return `${name(label[1])}:${label[2]}`;
      // only outside string literals (c"..." and asm strings cannot contain %N here anyway)
      return line.replace(/%([0-9]+)\b/g, (_m, n: string) => `%${name(n)}`);
    })
    .join('\n');
}

describe('functionBodies on the corpus', () => {
  const samples: FixtureBitcode[] = [
    pick('varargs', 14, 'O0'),
    pick('switch_dense', 16, 'O2'),
    pick('vec_sum', 19, 'O2'),
    pick('computed_goto', 19, 'O0'),
    pick('atomics_std', 16, 'O0'),
    pick('inline_asm', 14, 'O2'),
  ];

  test.each(samples.map((f) => [`${f.name} clang${f.clang} ${f.mode}`, f] as const))(
    'finds every defined function in %s',
    (_id, f) => {
      const text = read(f);
      const defined = [...text.matchAll(/^define [^@]*@("[^"]*"|[-\w$.]+)\(/gm)].map((m) => unquoteName(m[1]));
      const bodies = functionBodies(text);
      expect([...bodies.keys()]).toEqual(defined);
      for (const [, body] of bodies) expect(body.length).toBeGreaterThan(0);
    },
  );

  test.each(samples.map((f) => [`${f.name} clang${f.clang} ${f.mode}`, f] as const))(
    'renaming locals and labels does not change the normal form (%s)',
    (_id, f) => {
      const text = read(f);
      const base = functionBodies(text);
      for (const style of ['quoted', 'permuted'] as const) {
        const renamed = renameLocals(text, style);
        expect(renamed).not.toEqual(text);
        const other = functionBodies(renamed);
        expect(diffBodies(base, other)).toBeNull();
        expect(other).toEqual(base);
      }
    },
  );

  test('renumbering metadata does not change the normal form', () => {
    const text = read(pick('recursion', 19, 'O0'));
    const shifted = text.replace(/!([0-9]+)\b/g, (_m, n: string) => `!${Number(n) + 1000}`);
    expect(diffBodies(functionBodies(text), functionBodies(shifted))).toBeNull();
  });

  test('removes attachments, comments and attributes; keeps debug records and align on memory ops', () => {
    for (const f of [pick('vec_sum', 19, 'O2'), pick('structs_nested', 14, 'O0'), pick('inline_asm', 16, 'O2')]) {
      const lines = [...functionBodies(read(f)).values()].flat();
      for (const l of lines) {
        expect(l).not.toMatch(/!(dbg|tbaa|llvm\.loop|srcloc|prof|range|noundef|nonnull) /);
        expect(l).not.toMatch(/ #[0-9]/);
        expect(l).not.toMatch(/;/);
        expect(l).not.toMatch(/\b(noundef|nonnull|nocapture|byval|sret|signext|zeroext|dereferenceable)\b/);
        expect(l).not.toMatch(/ {2}/);
        expect(l).not.toMatch(/![0-9]/); // metadata references are renumbered !mN
        expect(l).not.toMatch(/%[0-9]/); // locals are renamed %vN
        if (/\balign\b/.test(l)) expect(l).toMatch(/^(%v[0-9]+ = )?(load|store|alloca|cmpxchg|atomicrmw)\b/);
      }
    }
    const vec = functionBodies(read(pick('vec_sum', 19, 'O2'))).get('saxpy')!;
    expect(vec).toContainEqual(expect.stringMatching(/^%v[0-9]+ = load <4 x float>, ptr %v[0-9]+, align 4$/));
    expect(vec).toContainEqual(expect.stringMatching(/^#dbg_value\(i32 %v0, !m0, !DIExpression\(\), !m1\)$/));
    const o0 = functionBodies(read(pick('structs_nested', 16, 'O0'))).get('main')!;
    // memcpy's `ptr align 8 %x` parameter attributes are gone
    expect(o0).toContainEqual(expect.stringMatching(/^call void @llvm\.memcpy\.p0\.p0\.i64\(ptr %v[0-9]+, ptr @__const\.main\.a, i64 8, i1 false\)$/));
  });

  test('keeps llvm.dbg.* intrinsic calls (clang 14/16) with renumbered metadata operands', () => {
    const body = functionBodies(read(pick('varargs', 14, 'O0'))).get('sum_ints')!;
    expect(body).toContainEqual('call void @llvm.dbg.declare(metadata i32* %v1, metadata !m0, metadata !DIExpression())');
    expect(body).toContainEqual('store i32 %v0, i32* %v1, align 4');
  });

  test('joins multi-line switch and callbr instructions', () => {
    const sw = functionBodies(read(pick('switch_dense', 19, 'O0'))).get('interp')!;
    const line = sw.find((l) => l.startsWith('switch '))!;
    expect(line).toMatch(/^switch i32 %v[0-9]+, label %v[0-9]+ \[ i32 0, label %v[0-9]+ i32 1, label %v[0-9]+ .* \]$/);
    const cb = functionBodies(read(pick('inline_asm', 14, 'O0'))).get('check_bit')!;
    expect(cb).toContainEqual(expect.stringMatching(/^callbr void asm sideeffect ".*"\(.*blockaddress\(@check_bit, %v[0-9]+\)\) to label %v[0-9]+ \[label %v[0-9]+\]$/));
  });

  test('quoted and escaped function names are keyed by their unquoted form', () => {
    const bodies = functionBodies(read(pick('symbol_names', 19, 'O0')));
    for (const n of ['with space', '42start', 'say"hi"', 'back\\slash', 'dot.name$dollar-dash', 'größe', 'main']) {
      expect(bodies.has(n)).toBe(true);
    }
  });
});

describe('functionBodies on snippets', () => {
  const module = (body: string, header = 'define i32 @f(i32 %a, i32 %b)'): string =>
    [
      '%struct.s = type { i32, [4 x i8] }',
      '%"struct.with space" = type { i64 }',
      '',
      '; Function Attrs: nounwind',
      `${header} #0 !dbg !10 {`,
      body,
      '}',
      '',
      'declare i32 @g(ptr)',
    ].join('\n');

  test('strips parameter, return and call-site attributes but not instruction alignment', () => {
    const text = module(
      [
        'entry:',
        '  %p = alloca %struct.s, align 16',
        '  %r = tail call noundef nonnull align 8 dereferenceable(16) ptr @h(ptr noundef byval(%struct.s) align 8 %p, i32 signext %a, ptr nocapture readonly sret(%"struct.with space") align 4 %p, ptr elementtype(i32) %p) #4, !dbg !12',
        '  %q = call range(i32 0, 33) i32 @llvm.ctpop.i32(i32 %b), !range !7',
        '  %l = load atomic i32, ptr %p seq_cst, align 4, !tbaa !5, !nonnull !{}',
        '  store volatile i32 %l, ptr %r, align 2, !noalias !9',
        '  %x = cmpxchg ptr %p, i32 %a, i32 %b acq_rel monotonic, align 4',
        '  ret i32 %q ; a trailing comment',
      ].join('\n'),
    );
    expect(functionBodies(text).get('f')).toEqual([
      'v2:',
      '%v3 = alloca %struct.s, align 16',
      '%v4 = tail call ptr @h(ptr %v3, i32 %v0, ptr %v3, ptr %v3)',
      '%v5 = call i32 @llvm.ctpop.i32(i32 %v1)',
      '%v6 = load atomic i32, ptr %v3 seq_cst, align 4',
      'store volatile i32 %v6, ptr %v4, align 2',
      '%v7 = cmpxchg ptr %v3, i32 %v0, i32 %v1 acq_rel monotonic, align 4',
      'ret i32 %v5',
    ]);
  });

  test('handles quoted local names, quoted labels and type names with spaces', () => {
    const a = module(
      [
        '  %"x y" = add nsw i32 %a, 1',
        '  br label %"loop head"',
        '"loop head":                                      ; preds = %0',
        '  %"p;q" = getelementptr %"struct.with space", ptr null, i32 %"x y"',
        '  ret i32 %"x y"',
      ].join('\n'),
    );
    const b = module(
      [
        '  %3 = add nsw i32 %a, 1',
        '  br label %4',
        '4:',
        '  %5 = getelementptr %"struct.with space", ptr null, i32 %3',
        '  ret i32 %3',
      ].join('\n'),
    );
    expect(diffBodies(functionBodies(a), functionBodies(b))).toBeNull();
    expect(functionBodies(a).get('f')).toEqual([
      '%v2 = add nsw i32 %v0, 1',
      'br label %v3',
      'v3:',
      '%v4 = getelementptr %"struct.with space", ptr null, i32 %v2',
      'ret i32 %v2',
    ]);
  });

  test('keeps semicolons inside strings and debug records as lines', () => {
    const text = module(
      [
        '  call void asm sideeffect "nop; nop", "~{memory}"() #3, !srcloc !4',
        '    #dbg_value(i32 %a, !20, !DIExpression(DW_OP_plus_uconst, 4), !21)',
        '    #dbg_value(!DIArgList(i32 %a, i32 %b), !22, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !21)',
        '    #dbg_label(!23, !21)',
        '  ret i32 0',
      ].join('\n'),
    );
    expect(functionBodies(text).get('f')).toEqual([
      'call void asm sideeffect "nop; nop", "~{memory}"()',
      '#dbg_value(i32 %v0, !m0, !DIExpression(DW_OP_plus_uconst, 4), !m1)',
      '#dbg_value(!DIArgList(i32 %v0, i32 %v1), !m2, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !m1)',
      '#dbg_label(!m3, !m1)',
      'ret i32 0',
    ]);
  });

  test('unquoteName decodes escapes', () => {
    expect(unquoteName('plain')).toBe('plain');
    expect(unquoteName('"with space"')).toBe('with space');
    expect(unquoteName('"say\\22hi\\22"')).toBe('say"hi"');
    expect(unquoteName('"back\\\\slash"')).toBe('back\\slash');
    expect(unquoteName('"gr\\C3\\B6\\C3\\9Fe"')).toBe('größe');
    expect(unquoteName('"\\01foo"')).toBe('\u0001foo');
  });

  test('normalizeBody can be used on a bare list of lines', () => {
    expect(normalizeBody(['  %3 = add i32 %1, %2, !dbg !4', '  ret i32 %3'], ['%1', '%2'])).toEqual([
      '%v2 = add i32 %v0, %v1',
      'ret i32 %v2',
    ]);
  });
});

describe('diffBodies reports real differences', () => {
  const text = (): string => readFileSync(pick('cf_loops', 19, 'O2').llPath, 'utf8');
  const base = (): Map<string, string[]> => functionBodies(text());

  /** Applies `edit` to the first line of function `fn` for which it changes something. */
  const mutate = (fn: string, edit: (line: string) => string): { changed: string; report: string | null } => {
    const lines = text().split('\n');
    const start = lines.findIndex((l) => l.startsWith('define ') && l.includes(`@${fn}(`));
    expect(start).toBeGreaterThanOrEqual(0);
    for (let i = start + 1; !lines[i].startsWith('}'); i++) {
      const e = edit(lines[i]);
      if (e !== lines[i]) {
        lines[i] = e;
        return { changed: e, report: diffBodies(base(), functionBodies(lines.join('\n'))) };
      }
    }
    throw new Error(`edit did not apply to @${fn}`);
  };

  test('equal inputs give null', () => {
    expect(diffBodies(base(), base())).toBeNull();
  });

  test('a changed opcode is reported with function, line and both lines', () => {
    const { report } = mutate('main', (l) => l.replace(/= add nuw nsw i32/, '= sub nuw nsw i32'));
    expect(report).not.toBeNull();
    expect(report).toMatch(/function @main, line [0-9]+ of [0-9]+/);
    expect(report).toMatch(/expected: %v[0-9]+ = add nuw nsw i32/);
    expect(report).toMatch(/actual: {3}%v[0-9]+ = sub nuw nsw i32/);
  });

  test('a changed constant operand is reported', () => {
    const { report } = mutate('main', (l) => (/icmp .*, [0-9]+,/.test(l) ? l.replace(/, ([0-9]+),/, (_m, n: string) => `, ${Number(n) + 1},`) : l));
    expect(report).toMatch(/function @main/);
  });

  test('swapped operands are reported (renaming is not allowed to hide them)', () => {
    const { report } = mutate('main', (l) => l.replace(/= (add|mul|xor|and|or)( [a-z ]*)?(i[0-9]+) (%[0-9]+), (%[0-9]+)/, '= $1$2$3 $5, $4'));
    expect(report).toMatch(/function @main/);
  });

  test('changed alignment of a load is reported', () => {
    const t = readFileSync(pick('structs_array', 16, 'O0').llPath, 'utf8');
    const changed = t.replace(/(= load i32, ptr %[0-9]+), align 4/, '$1, align 8');
    expect(changed).not.toEqual(t);
    expect(diffBodies(functionBodies(t), functionBodies(changed))).toMatch(/expected: .*align 4\n.*actual: .*align 8/s);
  });

  test('a dropped line, a missing function and an extra function are reported', () => {
    const exp = functionBodies(readFileSync(pick('funcptr', 19, 'O0').llPath, 'utf8'));
    expect(exp.size).toBeGreaterThan(2);
    const act = new Map(exp);
    const [first] = [...exp.keys()];
    act.set(first, exp.get(first)!.slice(1));
    act.delete([...exp.keys()][1]);
    act.set('bogus', ['ret void']);
    const report = diffBodies(exp, act)!;
    expect(report).toMatch(/missing functions: @/);
    expect(report).toMatch(/unexpected functions: @bogus/);
    expect(report).toMatch(new RegExp(`function @${first}, line 1 of`));
  });
});
