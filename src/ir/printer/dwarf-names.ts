/** DWARF constant names used in debug-info node fields (tags, languages, flags, …). */

function table(prefix: string, entries: [number, string][]): Map<number, string> {
  return new Map(entries.map(([v, n]) => [v, prefix + n]));
}

const TAGS = table('DW_TAG_', [
  [0x01, 'array_type'], [0x02, 'class_type'], [0x03, 'entry_point'], [0x04, 'enumeration_type'],
  [0x05, 'formal_parameter'], [0x08, 'imported_declaration'], [0x0a, 'label'], [0x0b, 'lexical_block'],
  [0x0d, 'member'], [0x0f, 'pointer_type'], [0x10, 'reference_type'], [0x11, 'compile_unit'],
  [0x12, 'string_type'], [0x13, 'structure_type'], [0x15, 'subroutine_type'], [0x16, 'typedef'],
  [0x17, 'union_type'], [0x18, 'unspecified_parameters'], [0x19, 'variant'], [0x1a, 'common_block'],
  [0x1b, 'common_inclusion'], [0x1c, 'inheritance'], [0x1d, 'inlined_subroutine'], [0x1e, 'module'],
  [0x1f, 'ptr_to_member_type'], [0x20, 'set_type'], [0x21, 'subrange_type'], [0x22, 'with_stmt'],
  [0x23, 'access_declaration'], [0x24, 'base_type'], [0x25, 'catch_block'], [0x26, 'const_type'],
  [0x27, 'constant'], [0x28, 'enumerator'], [0x29, 'file_type'], [0x2a, 'friend'], [0x2b, 'namelist'],
  [0x2c, 'namelist_item'], [0x2d, 'packed_type'], [0x2e, 'subprogram'], [0x2f, 'template_type_parameter'],
  [0x30, 'template_value_parameter'], [0x31, 'thrown_type'], [0x32, 'try_block'], [0x33, 'variant_part'],
  [0x34, 'variable'], [0x35, 'volatile_type'], [0x36, 'dwarf_procedure'], [0x37, 'restrict_type'],
  [0x38, 'interface_type'], [0x39, 'namespace'], [0x3a, 'imported_module'], [0x3b, 'unspecified_type'],
  [0x3c, 'partial_unit'], [0x3d, 'imported_unit'], [0x3f, 'condition'], [0x40, 'shared_type'],
  [0x41, 'type_unit'], [0x42, 'rvalue_reference_type'], [0x43, 'template_alias'], [0x44, 'coarray_type'],
  [0x45, 'generic_subrange'], [0x46, 'dynamic_type'], [0x47, 'atomic_type'], [0x48, 'call_site'],
  [0x49, 'call_site_parameter'], [0x4a, 'skeleton_unit'], [0x4b, 'immutable_type'],
  [0x4106, 'GNU_template_template_param'], [0x4107, 'GNU_template_parameter_pack'],
  [0x4108, 'GNU_formal_parameter_pack'], [0x4109, 'GNU_call_site'], [0x410a, 'GNU_call_site_parameter'],
  [0x4200, 'APPLE_property'], [0x4300, 'LLVM_ptrauth_type'],
]);

const LANGUAGES = table('DW_LANG_', [
  [0x01, 'C89'], [0x02, 'C'], [0x03, 'Ada83'], [0x04, 'C_plus_plus'], [0x05, 'Cobol74'], [0x06, 'Cobol85'],
  [0x07, 'Fortran77'], [0x08, 'Fortran90'], [0x09, 'Pascal83'], [0x0a, 'Modula2'], [0x0b, 'Java'],
  [0x0c, 'C99'], [0x0d, 'Ada95'], [0x0e, 'Fortran95'], [0x0f, 'PLI'], [0x10, 'ObjC'], [0x11, 'ObjC_plus_plus'],
  [0x12, 'UPC'], [0x13, 'D'], [0x14, 'Python'], [0x15, 'OpenCL'], [0x16, 'Go'], [0x17, 'Modula3'],
  [0x18, 'Haskell'], [0x19, 'C_plus_plus_03'], [0x1a, 'C_plus_plus_11'], [0x1b, 'OCaml'], [0x1c, 'Rust'],
  [0x1d, 'C11'], [0x1e, 'Swift'], [0x1f, 'Julia'], [0x20, 'Dylan'], [0x21, 'C_plus_plus_14'],
  [0x22, 'Fortran03'], [0x23, 'Fortran08'], [0x24, 'RenderScript'], [0x25, 'BLISS'], [0x26, 'Kotlin'],
  [0x27, 'Zig'], [0x28, 'Crystal'], [0x2a, 'C_plus_plus_17'], [0x2b, 'C_plus_plus_20'], [0x2c, 'C17'],
  [0x2d, 'Fortran18'], [0x2e, 'Ada2005'], [0x2f, 'Ada2012'], [0x30, 'HIP'], [0x31, 'Assembly'],
  [0x32, 'C_sharp'], [0x33, 'Mojo'], [0x8001, 'Mips_Assembler'], [0x8e57, 'GOOGLE_RenderScript'],
  [0xb000, 'BORLAND_Delphi'],
]);

const CALLING_CONVENTIONS = table('DW_CC_', [
  [0x01, 'normal'], [0x02, 'program'], [0x03, 'nocall'], [0x04, 'pass_by_reference'], [0x05, 'pass_by_value'],
  [0x40, 'GNU_renesas_sh'], [0x41, 'GNU_borland_fastcall_i386'], [0xb0, 'BORLAND_safecall'],
  [0xb1, 'BORLAND_stdcall'], [0xb2, 'BORLAND_pascal'], [0xb3, 'BORLAND_msfastcall'],
  [0xb4, 'BORLAND_msreturn'], [0xb5, 'BORLAND_thiscall'], [0xb6, 'BORLAND_fastcall'],
  [0xc0, 'LLVM_vectorcall'], [0xc1, 'LLVM_Win64'], [0xc2, 'LLVM_X86_64SysV'], [0xc3, 'LLVM_AAPCS'],
  [0xc4, 'LLVM_AAPCS_VFP'], [0xc5, 'LLVM_IntelOclBicc'], [0xc6, 'LLVM_SpirFunction'],
  [0xc7, 'LLVM_OpenCLKernel'], [0xc8, 'LLVM_Swift'], [0xc9, 'LLVM_PreserveMost'], [0xca, 'LLVM_PreserveAll'],
  [0xcb, 'LLVM_X86RegCall'], [0xcc, 'LLVM_M68kRTD'], [0xcd, 'LLVM_PreserveNone'], [0xff, 'GDB_IBM_OpenCL'],
]);

const MACINFO = table('DW_MACINFO_', [[1, 'define'], [2, 'undef'], [3, 'start_file'], [4, 'end_file'], [0xff, 'vendor_ext']]);

export const tagName = (v: number): string | undefined => TAGS.get(v);
export const languageName = (v: number): string | undefined => LANGUAGES.get(v);
export const callingConventionName = (v: number): string | undefined => CALLING_CONVENTIONS.get(v);
export const macinfoName = (v: number): string | undefined => MACINFO.get(v);

export const EMISSION_KINDS = ['NoDebug', 'FullDebug', 'LineTablesOnly', 'DebugDirectivesOnly'];
export const NAME_TABLE_KINDS = ['Default', 'GNU', 'None', 'Apple'];
export const CHECKSUM_KINDS = ['', 'CSK_MD5', 'CSK_SHA1', 'CSK_SHA256'];

/** Single-bit DIFlags, in the order LLVM splits them. */
const DI_FLAG_BITS: [number, string][] = [
  [1 << 2, 'FwdDecl'], [1 << 3, 'AppleBlock'], [1 << 4, 'ReservedBit4'], [1 << 5, 'Virtual'],
  [1 << 6, 'Artificial'], [1 << 7, 'Explicit'], [1 << 8, 'Prototyped'], [1 << 9, 'ObjcClassComplete'],
  [1 << 10, 'ObjectPointer'], [1 << 11, 'Vector'], [1 << 12, 'StaticMember'], [1 << 13, 'LValueReference'],
  [1 << 14, 'RValueReference'], [1 << 15, 'ExportSymbols'], [1 << 18, 'IntroducedVirtual'],
  [1 << 19, 'BitField'], [1 << 20, 'NoReturn'], [1 << 22, 'TypePassByValue'], [1 << 23, 'TypePassByReference'],
  [1 << 24, 'EnumClass'], [1 << 25, 'Thunk'], [1 << 26, 'NonTrivial'], [1 << 27, 'BigEndian'],
  [1 << 28, 'LittleEndian'], [1 << 29, 'AllCallsDescribed'],
];

/** `DIFlagPrototyped | DIFlagAllCallsDescribed` (unknown bits appended as a number). */
export function formatDIFlags(flags: number): string {
  const parts: string[] = [];
  let rest = flags;
  const access = rest & 3;
  if (access) {
    parts.push(access === 1 ? 'DIFlagPrivate' : access === 2 ? 'DIFlagProtected' : 'DIFlagPublic');
    rest &= ~3;
  }
  const inheritance = rest & (3 << 16);
  if (inheritance) {
    const k = inheritance >>> 16;
    parts.push(k === 1 ? 'DIFlagSingleInheritance' : k === 2 ? 'DIFlagMultipleInheritance' : 'DIFlagVirtualInheritance');
    rest &= ~(3 << 16);
  }
  const indirectVirtualBase = (1 << 2) | (1 << 5);
  if ((rest & indirectVirtualBase) === indirectVirtualBase) {
    parts.push('DIFlagIndirectVirtualBase');
    rest &= ~indirectVirtualBase;
  }
  for (const [bit, name] of DI_FLAG_BITS) {
    if (rest & bit) {
      parts.push('DIFlag' + name);
      rest &= ~bit;
    }
  }
  if (rest || parts.length === 0) parts.push(String(rest >>> 0));
  return parts.join(' | ');
}

const SP_FLAG_BITS: [number, string][] = [
  [1 << 2, 'LocalToUnit'], [1 << 3, 'Definition'], [1 << 4, 'Optimized'], [1 << 5, 'Pure'],
  [1 << 6, 'Elemental'], [1 << 7, 'Recursive'], [1 << 8, 'MainSubprogram'], [1 << 9, 'Deleted'],
  [1 << 11, 'ObjCDirect'],
];

/** `DISPFlagLocalToUnit | DISPFlagDefinition`, or `0`. */
export function formatSPFlags(flags: number): string {
  if (!flags) return '0';
  const parts: string[] = [];
  let rest = flags;
  const virtuality = rest & 3;
  if (virtuality) {
    parts.push(virtuality === 1 ? 'DISPFlagVirtual' : virtuality === 2 ? 'DISPFlagPureVirtual' : '');
    rest &= ~3;
  }
  for (const [bit, name] of SP_FLAG_BITS) {
    if (rest & bit) {
      parts.push('DISPFlag' + name);
      rest &= ~bit;
    }
  }
  if (rest || parts.length === 0) parts.push(String(rest >>> 0));
  return parts.join(' | ');
}
