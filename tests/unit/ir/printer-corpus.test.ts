/**
 * The whole printed module (header, globals, metadata, everything) against llvm-dis of the
 * same LLVM version, line by line. Two things are masked because the decoded module does not
 * carry what they need: attribute group numbers and `; Function Attrs:` comments (llvm-dis
 * replaces intrinsic declarations' attributes by LLVM's built-in table) and `; preds = …`
 * comments (their order follows the bitcode's use-list order records).
 */
import { readFileSync } from 'node:fs';
import { readBitcodeModule } from '../../../src/bitcode/index.js';
import { printModule } from '../../../src/ir/printer/index.js';
import { ensureFixturesBuilt, fixtureId, listFixtures } from '../../support/fixtures.js';

function masked(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => !l.startsWith('attributes #'))
    .map((l) =>
      l
        .replace(/ #\d+/g, ' #N')
        .replace(/; preds = .*/, '; preds')
        .replace(/^; Function Attrs:.*/, '; Function Attrs'),
    );
}

beforeAll(async () => {
  await ensureFixturesBuilt();
}, 15 * 60 * 1000);

test.each(listFixtures().map((f) => [fixtureId(f), f] as const))('%s prints exactly as llvm-dis does', (_id, f) => {
  const module = readBitcodeModule(new Uint8Array(readFileSync(f.bcPath)), f.bcPath);
  const expected = masked(readFileSync(f.llPath, 'utf8'));
  const actual = masked(printModule(module));
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    if (expected[i] !== actual[i]) {
      throw new Error(`${f.llPath}:${i + 1}\n  expected: ${expected[i]}\n  actual:   ${actual[i]}`);
    }
  }
});
