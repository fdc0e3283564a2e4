// The memory model --addressing and its options ask for (memory/model.ts), checked once at set-up.
import { forkingModel, relocatableModel, type MemoryModelFactory } from '../../memory/index.js';
import type { EngineOptions } from '../options.js';
import { EngineSetupError } from '../run-types.js';

/** The memory model the options ask for (memory/model.ts). */
export function memoryModelOf(o: EngineOptions): MemoryModelFactory {
  if (o.addressing === 'concrete') return forkingModel;
  if (o.partitionSize < 8 || o.partitionSize % 8 !== 0) throw new EngineSetupError(`--partition-size=${o.partitionSize}: must be a positive multiple of 8`);
  if (o.contextResolve >= 0 && !o.segmentMerging) throw new EngineSetupError('--context-resolve needs --segment-merging');
  if (o.contextResolve > 7) throw new EngineSetupError(`--context-resolve=${o.contextResolve}: at most 7`);
  return relocatableModel({
    useLocalSymAddr: o.useLocalSymAddr,
    segmentMerging: o.segmentMerging,
    contextResolve: o.contextResolve,
    reuseSegments: o.reuseSegments,
    splitObjects: o.splitObjects,
    splitThreshold: o.splitThreshold,
    partitionSize: o.partitionSize,
    checkInvariants: o.checkAddressInvariants,
  });
}
