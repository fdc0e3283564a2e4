/**
 * The relocatable model's invariants (digest §2.5), checked after a relocation when
 * RelocatableOptions.checkInvariants is on (tests, debugging): live objects never overlap;
 * every symbolic base of a live object resolves to an address in it, at the offset its parts
 * say; no substituted base is 0.
 */
import type { RelocatableMemory } from './relocatable.js';

export function checkRelocationInvariants(mem: RelocatableMemory): void {
  const live = mem.bindings().filter((b) => b.os !== null);
  for (let i = 1; i < live.length; i++) {
    const a = live[i - 1]!.mo;
    const b = live[i]!.mo;
    if (a.address + a.size > b.address) throw new Error(`relocatable addressing: MO${a.id} and MO${b.id} overlap after a relocation`);
  }
  for (const { mo } of live) {
    const r = mo.reloc;
    if (r === null) continue;
    if (r.base !== null) {
      const c = mem.ac.addressOf(r.symbol);
      if (c === 0 || c !== mo.address) throw new Error(`relocatable addressing: MO${mo.id}'s base resolves to ${c}, not its address ${mo.address}`);
    }
    for (const part of r.parts ?? []) {
      const c = mem.ac.addressOf(part.symbol);
      if (c !== mo.address + part.offset) throw new Error(`relocatable addressing: a part of segment MO${mo.id} resolves to ${c}, not ${mo.address + part.offset}`);
    }
    if (r.chunks !== null && r.chunks[0] === mo && r.splitBase !== null) {
      const c = mem.constantAddress(r.splitBase);
      if (c !== mo.address) throw new Error(`relocatable addressing: split object's base resolves to ${c}, not its first chunk ${mo.address}`);
    }
  }
}
