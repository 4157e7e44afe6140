import { loadModel, loadValidSpecs } from "../../src/index.js";
import type { Request } from "./service.js";

/**
 * Issue 45's oracle for every exit: whatever a reader is shown of a record elsewhere (its history,
 * a webhook's body) holds no key its own show of that record does not output now, but for the keys
 * of links (a belongsToMany and its pivot fields, which a show nests only when asked).
 */

export interface Reader {
  /** A role, or "anonymous". */
  readonly role: string;
  readonly token: string | undefined;
  /** With tenancy: a member of the tenant (`role` its role there), or a platform user (`role` its platform role). */
  readonly member?: boolean;
}

/** What one role's webhook was sent. */
export interface SentBody {
  readonly type: string;
  readonly data: { readonly hash: string; readonly changes: Record<string, unknown>; readonly record: Record<string, unknown> | null; readonly tenant?: string | null };
}

async function linkKeysOf(specsDir: string): Promise<(resource: string) => string[]> {
  const specs = await loadValidSpecs(specsDir);
  // The other side of a link (`inverse:`) declares no pivot: its fields are the owning side's.
  const pivotOf = (resource: string, relation: { pivot?: { name: string }[]; inverse?: string; resource: string }) =>
    relation.inverse === undefined ? (relation.pivot ?? []) : (specs.resources.find((spec) => spec.name === relation.resource)?.relations?.find((owning) => owning.name === relation.inverse && owning.resource === resource)?.pivot ?? []);
  return (name) =>
    (specs.resources.find((spec) => spec.name === name)?.relations ?? [])
      .filter((relation) => relation.type === "belongsToMany")
      .flatMap((relation) => [relation.name, ...pivotOf(name, relation).map((field) => `${relation.name}.${field.name}`)]);
}

/** The keys of `keys` that `reader`'s show of the record at `path` does not have; null when its show is refused (and so must every other exit be). */
async function beyondShow(send: Request, path: string, reader: Reader, links: readonly string[], keys: readonly string[]): Promise<string[] | null> {
  const show = await send("GET", path, { token: reader.token });
  if (show.status !== 200) return null;
  const allowed = new Set([...Object.keys(show.body.data as object), ...links]);
  return keys.filter((key) => !allowed.has(key));
}

/** Every audited resource's records (up to `perResource`, as the first reader lists them), read by every reader: history against show. */
export async function historyLeaks(send: Request, specsDir: string, readers: readonly Reader[], perResource = 20): Promise<{ leaks: string[]; read: number }> {
  const model = await loadModel(specsDir);
  const linkKeys = await linkKeysOf(specsDir);
  const leaks: string[] = [];
  let read = 0;
  for (const resource of model.resources.filter((entry) => entry.audit)) {
    const listed = await send("GET", `/api/${resource.collection}?per_page=${perResource}`, { token: readers[0]!.token });
    for (const row of (Array.isArray(listed.body?.data) ? listed.body.data : []) as Record<string, unknown>[]) {
      const path = `/api/${resource.collection}/${String(row.hash ?? row.public_id)}`;
      for (const reader of readers) {
        const history = await send("GET", `${path}/history?per_page=100`, { token: reader.token });
        read += 1;
        const keys = history.status === 200 ? (history.body.data as { changes: Record<string, unknown> }[]).flatMap((entry) => Object.keys(entry.changes)) : [];
        const beyond = await beyondShow(send, path, reader, linkKeys(resource.name), keys);
        if (beyond === null) {
          if (history.status === 200) leaks.push(`${reader.role}: ${path}/history answered 200, its show did not`);
        } else for (const key of new Set(beyond)) leaks.push(`${reader.role}: ${path}/history shows ${key}`);
      }
    }
  }
  return { leaks, read };
}

/**
 * What each role's webhook was sent (the last `perRole`), against that role's show of the record
 * now. With tenancy, `tenant`: the tenant `send` works in and the readers are members of; an
 * event of another tenant's record (which a webhook hears too, read there as a member) has no
 * reader here to compare with, and is compared by the tenancy e2e test.
 */
export async function webhookLeaks(send: Request, specsDir: string, sent: ReadonlyMap<string, readonly SentBody[]>, readers: readonly Reader[], perRole = 150, tenant?: string): Promise<{ leaks: string[]; read: number }> {
  const model = await loadModel(specsDir);
  const linkKeys = await linkKeysOf(specsDir);
  const leaks: string[] = [];
  let read = 0;
  for (const [role, bodies] of sent) {
    for (const body of bodies.slice(-perRole)) {
      if (tenant !== undefined && body.data.tenant != null && body.data.tenant !== tenant) continue;
      // A tenant's record is read by a member with the webhook's role there; a global record (no
      // tenant) by a platform user of that role, as the routes of global resources read roles.
      const global = tenant !== undefined && body.data.tenant == null;
      const reader = readers.find((entry) => entry.role === role && (tenant === undefined || (entry.member ?? false) !== global));
      if (!reader) continue;
      const resource = model.resources.find((entry) => body.data.hash.startsWith(`${entry.prefix}_`));
      if (!resource) continue;
      read += 1;
      const keys = [...Object.keys(body.data.changes), ...Object.keys(body.data.record ?? {})];
      // Refused now (gone, trashed, or another's to a role that owns records): nothing to compare with.
      const beyond = await beyondShow(send, `/api/${resource.collection}/${body.data.hash}`, reader, linkKeys(resource.name), keys);
      for (const key of new Set(beyond ?? [])) leaks.push(`${role}'s webhook: ${body.type} of ${body.data.hash} carries ${key}`);
    }
  }
  return { leaks, read };
}
