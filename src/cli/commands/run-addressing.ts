/**
 * `tsklee run`'s options of the memory model (paper 003: relocatable addressing, segment
 * merging, context resolution, segment reuse, splitting): the rows of run's option table and
 * their mapping onto EngineOptions.
 */
import { DEFAULT_OPTIONS, type AddressingKind, type EngineOptions } from '../../engine/options.js';
import { UsageError } from '../errors.js';
import type { RunOptionSpec } from './run-options.js';

export const ADDRESSING_OPTIONS: Record<string, RunOptionSpec> = {
  addressing: { type: 'string', describe: "memory model: concrete (KLEE's: objects at fixed addresses, a fork per object a pointer may hit; default) or relocatable (symbolic base addresses, paper 003)" },
  'use-local-sym-addr': { type: 'boolean', describe: 'relocatable addressing: stack objects get symbolic addresses too (default false)' },
  'segment-merging': { type: 'boolean', describe: 'relocatable addressing: merge the objects a pointer may hit into one segment instead of forking' },
  'context-resolve': { type: 'number', describe: 'with --segment-merging: context-based resolution with k call sites (0-7; default off)' },
  'reuse-segments': { type: 'boolean', describe: "with --segment-merging: states merging the same objects at the same place share the segment's address and array (query cache hits)" },
  'split-objects': { type: 'boolean', describe: 'relocatable addressing: split objects read at a symbolic offset into chunks' },
  'split-threshold': { type: 'number', describe: `with --split-objects: split objects larger than this many bytes (default ${DEFAULT_OPTIONS.splitThreshold})` },
  'partition-size': { type: 'number', describe: `with --split-objects: chunk size in bytes, a multiple of 8 (default ${DEFAULT_OPTIONS.partitionSize})` },
  'check-address-invariants': { type: 'boolean', describe: "relocatable addressing: check the model's invariants at every relocation and query (slow; debugging)" },
};

export interface AddressingArgs {
  addressing?: string;
  useLocalSymAddr?: boolean;
  segmentMerging?: boolean;
  contextResolve?: number;
  reuseSegments?: boolean;
  splitObjects?: boolean;
  splitThreshold?: number;
  partitionSize?: number;
  checkAddressInvariants?: boolean;
}

const KINDS: readonly AddressingKind[] = ['concrete', 'relocatable'];

/** The options checked; an option of the relocatable model without --addressing=relocatable is a usage error. */
export function addressingOptions(a: AddressingArgs): Partial<EngineOptions> {
  const addressing = (a.addressing ?? 'concrete') as AddressingKind;
  if (!KINDS.includes(addressing)) throw new UsageError(`--addressing=${a.addressing}: expected concrete or relocatable`);
  const relocOnly: [string, unknown][] = [
    ['use-local-sym-addr', a.useLocalSymAddr],
    ['segment-merging', a.segmentMerging],
    ['context-resolve', a.contextResolve],
    ['reuse-segments', a.reuseSegments],
    ['split-objects', a.splitObjects],
  ];
  if (addressing === 'concrete') {
    const used = relocOnly.find(([, v]) => v !== undefined && v !== false);
    if (used !== undefined) throw new UsageError(`--${used[0]} needs --addressing=relocatable`);
  }
  if (a.contextResolve !== undefined && !(Number.isInteger(a.contextResolve) && a.contextResolve >= 0 && a.contextResolve <= 7)) {
    throw new UsageError(`--context-resolve=${a.contextResolve}: expected an integer from 0 to 7`);
  }
  if (a.contextResolve !== undefined && !a.segmentMerging) throw new UsageError('--context-resolve needs --segment-merging');
  if (a.reuseSegments && !a.segmentMerging) throw new UsageError('--reuse-segments needs --segment-merging');
  if (a.splitThreshold !== undefined && !(Number.isInteger(a.splitThreshold) && a.splitThreshold >= 0)) throw new UsageError(`--split-threshold=${a.splitThreshold}: expected an integer ≥ 0`);
  if (a.partitionSize !== undefined && !(Number.isInteger(a.partitionSize) && a.partitionSize >= 8 && a.partitionSize % 8 === 0)) {
    throw new UsageError(`--partition-size=${a.partitionSize}: expected a positive multiple of 8`);
  }
  return {
    addressing,
    useLocalSymAddr: a.useLocalSymAddr,
    segmentMerging: a.segmentMerging,
    contextResolve: a.contextResolve,
    reuseSegments: a.reuseSegments,
    splitObjects: a.splitObjects,
    splitThreshold: a.splitThreshold,
    partitionSize: a.partitionSize,
    checkAddressInvariants: a.checkAddressInvariants,
  };
}
