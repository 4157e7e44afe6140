// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AdminApi } from "../api.js";
import { useLoad } from "../hooks.js";

/** The tenants the caller belongs to (GET /api/auth/tenants); choosing one sends it as X-Tenant. */
export function TenantSwitcher(props: { api: AdminApi; label: string; onChange: () => void }) {
  const [tenants] = useLoad(
    () =>
      props.api.call<{ hash: string; role: string; name?: string }[]>(
        "GET",
        "/api/auth/tenants",
        "data",
      ),
    [],
  );
  if (tenants.state !== "done") return null;
  const chosen = props.api.tenant() ?? "";
  return (
    <label class="tenant">
      <span>{props.label}</span>
      <select
        value={chosen}
        onChange={(event) => {
          const value = (event.currentTarget as HTMLSelectElement).value;
          props.api.setTenant(value === "" ? undefined : value);
          props.onChange();
        }}
      >
        <option value="">None</option>
        {tenants.data.map((tenant) => (
          <option key={tenant.hash} value={tenant.hash}>
            {tenant.name ?? tenant.hash} ({tenant.role})
          </option>
        ))}
      </select>
    </label>
  );
}
