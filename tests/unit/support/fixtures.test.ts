/** The fixture helper: naming scheme, completeness of the corpus build, up-to-date check. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { ensureFixturesBuilt, fixtureId, listFixtures, selectedClangVersions } from '../../support/fixtures.js';

describe('fixtures', () => {
  test('listFixtures names every (program, clang, mode) once, without building', () => {
    const list = listFixtures();
    const programs = new Set(list.map((f) => f.name));
    expect(programs.size).toBeGreaterThanOrEqual(48);
    expect(list.length).toBe(programs.size * selectedClangVersions().length * 2);
    expect(new Set(list.map(fixtureId)).size).toBe(list.length);
    for (const f of list) {
      expect(basename(f.bcPath)).toBe(`${f.name}.clang${f.clang}.${f.mode}.bc`);
      expect(f.llPath).toBe(f.bcPath.replace(/\.bc$/, '.ll'));
    }
    expect(listFixtures({ large: true }).filter((f) => f.name === 'large')).toHaveLength(selectedClangVersions().length * 2);
    expect(listFixtures({ onlyLarge: true }).every((f) => f.name === 'large')).toBe(true);
  });

  test('ensureFixturesBuilt returns built bitcode and the matching llvm-dis output', async () => {
    const list = await ensureFixturesBuilt();
    expect(list).toEqual(listFixtures());
    for (const f of list) {
      expect(existsSync(f.bcPath)).toBe(true);
      expect(statSync(f.llPath).mtimeMs).toBeGreaterThanOrEqual(statSync(f.bcPath).mtimeMs - 1000);
    }
    const f = list.find((x) => x.clang === 19 && x.mode === 'O2') ?? list[0];
    const bc = readFileSync(f.bcPath);
    expect(bc.subarray(0, 4).toString('hex')).toBe('4243c0de'); // 'BC' 0xC0DE
    const ll = readFileSync(f.llPath, 'utf8');
    expect(ll).toContain(`source_filename = "`);
    expect(ll).toContain('target triple = "x86_64-unknown-linux-gnu"');
  });
});
