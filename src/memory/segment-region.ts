/**
 * Where segments and split objects live (relocatable addressing): one run-wide bump region,
 * apart from every state's own allocation regions, so a relocation never takes an address a
 * state's allocator may give out later, and a reused segment (§3.5) has the same address in
 * every state that merges the same objects.
 */
import { RED_ZONE } from './allocator.js';

/** Base of the region (between the heap and the argv/varargs regions; below 2^47). */
export const SEGMENT_BASE = 0x0200_0000_0000;

export class SegmentRegion {
  private cursor = SEGMENT_BASE;

  /** A 16-aligned range of `size` bytes no state uses, followed by a red zone. */
  allocate(size: number): number {
    const addr = Math.ceil(this.cursor / 16) * 16;
    this.cursor = addr + Math.max(size, 1) + RED_ZONE;
    return addr;
  }
}
