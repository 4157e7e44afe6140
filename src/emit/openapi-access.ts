import { payloadWriters } from "../model/payload-writers.js";
import type { ResourceModel } from "../model/types.js";

/**
 * Per operation of a resource, who may call it and which records it reaches, as openapi.json says
 * it: public operations take no token, those limited to roles name them (`x-roles`, for tools),
 * fields only some roles may send are named where they are sent (`x-writable-by`; the payload
 * schemas stay the validators' own), what the server sets, and ownership (`x-owner`).
 */
export function operationAccess(resource: ResourceModel): (action: keyof ResourceModel["actions"]) => object {
  // What the server sets (`set:`) is sent by its bypass roles only.
  const writers = Object.entries(payloadWriters(resource.declaration)).map(([name, roles]) => ({ name, roles }));
  const when = (set: { on: string }) => (set.on === "write" ? "on every write" : "on create");
  const toCaller = resource.belongsTo.filter((relation) => relation.setByCaller);
  const toNow = resource.fields.filter((field) => field.setByServer);
  const setNote =
    (toCaller.length === 0 ? "" : ` Set by the server to the caller: ${toCaller.map((relation) => `${relation.name} (${when(relation.setByCaller!)})`).join("; ")}.`) +
    (toNow.length === 0 ? "" : ` Set by the server to the current time: ${toNow.map((field) => `${field.name} (${when(field.setByServer!)})`).join("; ")}.`);
  const writing = writers.length === 0 ? undefined : { "x-writable-by": Object.fromEntries(writers.map((writer) => [writer.name, writer.roles])), note: `Fields only some roles may send (422 "prohibited" for the others): ${writers.map((writer) => `${writer.name} (${writer.roles.join(", ") || "none"})`).join("; ")}.${setNote}` };
  // Ownership, on every operation of an owned resource: who reaches which records.
  const owner = resource.owner;
  const ownerPath = owner ? (owner.through ? `${owner.through}.${owner.column.replace(/_id$/, "")}` : owner.payloadKey!) : "";
  const owned = owner
    ? {
        "x-owner": { relation: ownerPath, bypass: owner.bypass },
        note: `Callers reach only the records they own (through ${ownerPath}); another's record is a 404, exactly as a missing one${owner.bypass.length > 0 ? `. The roles ${owner.bypass.join(", ")} reach every record` : ""}.`,
      }
    : undefined;
  return (action: keyof ResourceModel["actions"]) => {
    const { public: isPublic, roles } = resource.actions[action];
    const writes = action === "store" || action === "update" ? writing : undefined;
    const notes: string[] = [];
    if (roles !== undefined) notes.push(roles.length === 0 ? "No role may call this operation (403)." : `Only for the roles ${roles.join(", ")}; 403 for the others, before anything is read.`);
    if (writes) notes.push(writes.note);
    if (owned) notes.push(owned.note);
    return {
      ...(isPublic ? { security: [{}, { bearer: [] }] } : {}),
      ...(roles !== undefined && !isPublic ? { "x-roles": roles } : {}),
      ...(writes ? { "x-writable-by": writes["x-writable-by"] } : {}),
      ...(owned ? { "x-owner": owned["x-owner"] } : {}),
      ...(notes.length > 0 ? { description: notes.join(" ") } : {}),
    };
  };
}
