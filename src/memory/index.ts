/** Memory: objects, copy-on-write contents, per-state address spaces, the allocator. */
export { MemoryObject, ObjectKind, objectsCreated, resetObjectIds } from './memory-object.js';
export { ObjectState, resetConstArrayCounter } from './object-state.js';
export { AddressSpace, resetCowKeys } from './address-space.js';
export { PNode } from './pmap.js';
export {
  Allocator,
  GlobalLayout,
  NULL_PAGE_SIZE,
  FUNCTIONS_BASE,
  GLOBALS_BASE,
  HEAP_BASE,
  ARGS_BASE,
  STACK_BASE,
  MAX_ALLOCATION,
  RED_ZONE,
} from './allocator.js';
export type { StateMemory, MemoryModelFactory, ResolveOracle, PointerValue } from './model.js';
export { ForkingMemory, forkingModel } from './forking.js';
export { RelocatableMemory, relocatableModel, DEFAULT_RELOCATABLE_OPTIONS, type RelocatableOptions } from './relocatable.js';
export { RelocationStats, RELOCATION_COLUMNS } from './relocation-stats.js';
