/**
 * Error lines quote bytes of the input escaped (src/cli/errors.ts), and allocation sites in
 * .err files print the instruction without unresolvable metadata (src/engine/exec-memory.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { describeError } from '../../../src/cli/errors.js';
import { DataLayout, DataLayoutError } from '../../../src/ir/datalayout.js';
import { InputError } from '../../../src/load.js';
import { siteText } from '../../../src/engine/exec-memory.js';

describe('one-line errors', () => {
  it('escapes control bytes a corrupt data layout string carries', () => {
    let err: unknown;
    try {
      DataLayout.parse('e-m:e-\x07x\nq:1');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataLayoutError);
    const { line, code } = describeError(err);
    expect(code).toBe(1);
    expect([...line].every((c) => c.charCodeAt(0) >= 0x20)).toBe(true);
    expect(line).toContain('\\x07x\\x0aq:1');
  });

  it('escapes them in input errors too', () => {
    const { line } = describeError(new InputError('a\x1bb.bc', 'bad\rthing'));
    expect(line).toBe('a\\x1bb.bc: bad\\x0dthing');
  });
});

describe('allocation sites', () => {
  it('drop metadata attachments and attribute groups', () => {
    expect(siteText('  %4 = call noalias ptr @malloc(i64 noundef 16) #<nounwind allocsize(0)>, !dbg !DILocation(line: 3, column: 70, scope: <badref>)')).toBe(
      '%4 = call noalias ptr @malloc(i64 noundef 16)',
    );
    expect(siteText('  %a = alloca [4 x i32], align 16, !dbg !12, !tbaa !5')).toBe('%a = alloca [4 x i32], align 16');
    // metadata operands of calls are not attachments
    expect(siteText('  call void @llvm.dbg.declare(metadata ptr %x, metadata !12, metadata !DIExpression())')).toBe(
      'call void @llvm.dbg.declare(metadata ptr %x, metadata !12, metadata !DIExpression())',
    );
  });
});
