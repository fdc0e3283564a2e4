/** The .err text against KLEE's layout (Executor::terminateStateOnError + ExecutionState::dumpStack). */
import { formatErrFile, formatStackFrame } from '../../../src/output/err-file.js';

describe('formatErrFile', () => {
  test('golden: location, state, stack with constant and symbolic arguments, info', () => {
    const text = formatErrFile({
      message: 'memory error: out of bound pointer',
      file: '/src/prog.c',
      line: 12,
      assemblyLine: 57,
      stateId: 3,
      stack: [
        { fn: 'f', assemblyLine: 57, file: '/src/prog.c', line: 12, args: [{ name: 'p', value: 94372116584448n }, { name: 'n' }] },
        { fn: 'main', assemblyLine: 31, file: '/src/prog.c', line: 20, args: [] },
      ],
      info: '\taddress: 94372116584460\n\tnext: object at 94372116584448 of size 12\n',
    });
    expect(text).toBe(
      'Error: memory error: out of bound pointer\n' +
        'File: /src/prog.c\n' +
        'Line: 12\n' +
        'assembly.ll line: 57\n' +
        'State: 3\n' +
        'Stack: \n' +
        '\t#000000057 in f(p=94372116584448, n=symbolic) at /src/prog.c:12\n' +
        '\t#100000031 in main() at /src/prog.c:20\n' +
        'Info: \n' +
        '\taddress: 94372116584460\n' +
        '\tnext: object at 94372116584448 of size 12\n',
    );
  });

  test('without a source file: no File/Line/assembly/State lines, no "at"', () => {
    expect(formatErrFile({ message: 'divide by zero', stack: [{ fn: 'g', assemblyLine: 9, args: [{ value: 0 }] }] })).toBe(
      'Error: divide by zero\nStack: \n\t#000000009 in g(0)\n',
    );
  });

  test('an Info text without a final newline gets one; an empty one is left out', () => {
    expect(formatErrFile({ message: 'm', stack: [], info: 'detail' })).toBe('Error: m\nStack: \nInfo: \ndetail\n');
    expect(formatErrFile({ message: 'm', stack: [], info: '' })).toBe('Error: m\nStack: \n');
  });

  test('frame numbers beyond 9 and assembly lines beyond 8 digits', () => {
    expect(formatStackFrame(12, { fn: 'deep', assemblyLine: 123456789 })).toBe('#12123456789 in deep()');
    expect(formatStackFrame(0, { fn: 'x' })).toBe('#000000000 in x()');
  });
});
