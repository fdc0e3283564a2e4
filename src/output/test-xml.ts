/**
 * Test-Comp's XML test format, as KLEE's --write-xml-tests writes it (tools/klee/main.cpp):
 * testNNNNNN.xml holds one `<input>` per symbolic object, its bytes read as a little-endian
 * number whose signedness and kind come from the object's name (Test-Comp harnesses name
 * objects after their C type); metadata.xml describes the run (--xml-metadata-programfile,
 * --xml-metadata-programhash).
 */
import type { KTest } from './ktest.js';

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The object's value as KLEE prints it: unsigned for u*, pointers, *_t and _Bool names, floating for float/double, else signed. */
export function xmlValue(name: string, bytes: Uint8Array): string {
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]!);
  const bits = BigInt(bytes.length * 8);
  if (name.startsWith('float') && bytes.length === 4) return String(new DataView(bytes.buffer, bytes.byteOffset, 4).getFloat32(0, true));
  if (name.startsWith('double') && bytes.length === 8) return String(new DataView(bytes.buffer, bytes.byteOffset, 8).getFloat64(0, true));
  const unsigned = name.startsWith('u') || name.includes('*') || name.endsWith('_t') || name.startsWith('_');
  if (unsigned || bits === 0n) return v.toString();
  return BigInt.asIntN(Number(bits), v).toString();
}

export function formatTestXml(ktest: KTest, coversError: boolean): string {
  let s = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n';
  s += '<!DOCTYPE testcase PUBLIC "+//IDN sosy-lab.org//DTD test-format testcase 1.0//EN" "https://sosy-lab.org/test-format/testcase-1.0.dtd">\n';
  s += coversError ? '<testcase coversError="true">\n' : '<testcase>\n';
  for (const o of ktest.objects) s += `\t<input variable="${escapeXml(o.name)}" type="${escapeXml(o.name)}">${xmlValue(o.name, o.bytes)}</input>\n`;
  return s + '</testcase>\n';
}

export interface XmlMetadata {
  programFile: string;
  programHash: string;
  entryFunction: string;
  /** --exit-on-error: a bug-finding run (else coverage). */
  bugFinding: boolean;
  producer: string;
  creationTime: Date;
}

export function formatXmlMetadata(m: XmlMetadata): string {
  const spec = m.bugFinding ? 'COVER( init(main()), FQL(COVER EDGES(@CALL(__VERIFIER_error))) )' : 'COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )';
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' +
    '<!DOCTYPE test-metadata PUBLIC "+//IDN sosy-lab.org//DTD test-format test-metadata 1.0//EN" "https://sosy-lab.org/test-format/test-metadata-1.0.dtd">\n' +
    '<test-metadata>\n' +
    '\t<sourcecodelang>C</sourcecodelang>\n' +
    `\t<producer>${escapeXml(m.producer)}</producer>\n` +
    `\t<specification>${escapeXml(spec)}</specification>\n` +
    `\t<programfile>${escapeXml(m.programFile)}</programfile>\n` +
    `\t<programhash>${escapeXml(m.programHash)}</programhash>\n` +
    `\t<entryfunction>${escapeXml(m.entryFunction)}</entryfunction>\n` +
    '\t<architecture>64bit</architecture>\n' +
    `\t<creationtime>${m.creationTime.toISOString()}</creationtime>\n` +
    '</test-metadata>\n'
  );
}
