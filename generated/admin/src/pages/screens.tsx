// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { ComponentChild } from "preact";
import { useState } from "preact/hooks";
import type { Page, PageMeta } from "../../../client/src/core.js";
import type { AdminApi, AnyRecord } from "../api.js";
import { useLoad } from "../hooks.js";
import type { AdminView } from "../manifest.js";
import { ErrorSummary, TextInput } from "../parts/inputs.js";
import { NotFound, Failed, Loading } from "../parts/states.js";
import { PageButtons } from "../parts/pager.js";
import type { Screen } from "../routes.js";

/** A screen's table: where it reads, its columns, and the retry or removal a row offers. */
interface ScreenShape {
  readonly title: string;
  readonly path: string;
  readonly paged: boolean;
  /** The statuses its list filters by (`?status=`). */
  readonly statuses?: readonly string[];
  readonly columns: readonly string[];
  /** A row's action: POST `${path}/${hash}/retry`, or DELETE `${path}/${key}`. */
  readonly row?: {
    readonly label: string;
    readonly method: "POST" | "DELETE";
    readonly suffix: string;
    readonly key: (row: AnyRecord) => string;
    readonly when?: (row: AnyRecord) => boolean;
  };
}

const shapes: Readonly<Record<Screen, ScreenShape>> = {
  deliveries: {
    title: "Webhook deliveries",
    path: "/api/webhooks/deliveries",
    paged: true,
    statuses: ["pending", "delivered", "failed", "skipped"],
    columns: [
      "hash",
      "receiver",
      "type",
      "record_hash",
      "status",
      "attempts",
      "last_status",
      "last_error",
      "next_attempt_at",
      "delivered_at",
    ],
    row: {
      label: "Retry",
      method: "POST",
      suffix: "/retry",
      key: (row) => String(row.hash),
      when: (row) => row.status !== "delivered",
    },
  },
  jobs: {
    title: "Jobs",
    path: "/api/jobs",
    paged: true,
    statuses: ["pending", "running", "done", "failed"],
    columns: ["hash", "name", "status", "attempts", "last_error", "run_at", "finished_at"],
    row: {
      label: "Retry",
      method: "POST",
      suffix: "/retry",
      key: (row) => String(row.hash),
      when: (row) => row.status === "failed" || row.status === "pending",
    },
  },
  invitations: {
    title: "Invitations",
    path: "/api/auth/invitations",
    paged: false,
    columns: ["email", "role", "created_at", "expires_at"],
    row: { label: "Revoke", method: "DELETE", suffix: "", key: (row) => String(row.hash) },
  },
  members: {
    title: "Members",
    path: "/api/members",
    paged: false,
    columns: ["user", "role", "since"],
    row: {
      label: "Remove",
      method: "DELETE",
      suffix: "",
      key: (row) => String((row.user as AnyRecord).hash),
    },
  },
};

const cell = (value: unknown) =>
  value === null || value === undefined
    ? "—"
    : typeof value === "object"
      ? String((value as AnyRecord).name ?? JSON.stringify(value))
      : String(value);

/** Invitations, deliveries, jobs, members: a table of what the API lists, a row action each. */
export function ScreenPage(props: ScreenProps) {
  const { extras } = props.view;
  const open = {
    invitations: extras.invitations,
    deliveries: extras.deliveries,
    jobs: extras.jobs,
    members: extras.members,
  };
  return open[props.screen] ? <ScreenOpen {...props} /> : <NotFound what="page" />;
}

interface ScreenProps {
  api: AdminApi;
  view: AdminView;
  screen: Screen;
  query: string;
}

function ScreenOpen(props: ScreenProps) {
  const { api, view, screen } = props;
  const shape = shapes[screen];
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState("");
  const [notice, setNotice] = useState("");
  const path = shape.paged
    ? `${shape.path}?page=${page}${status ? `&status=${status}` : ""}`
    : shape.path;
  const [loaded, reload] = useLoad(
    () => api.call<AnyRecord[] | Page<AnyRecord>>("GET", path, shape.paged ? "page" : "data"),
    [screen, page, status],
  );

  async function act(row: AnyRecord) {
    const action = shape.row!;
    const result = await api.call(
      action.method,
      `${shape.path}/${encodeURIComponent(action.key(row))}${action.suffix}`,
      "data",
    );
    setNotice(result.error === undefined ? `${action.label}: done.` : result.error.message);
    reload();
  }

  const answer = loaded.state === "done" ? loaded.data : undefined;
  const meta = answer && !Array.isArray(answer) ? (answer.meta as PageMeta) : undefined;
  return (
    <>
      <h1 tabIndex={-1}>{shape.title}</h1>
      {screen === "invitations" && <InviteForm api={api} roles={view.roles} onDone={reload} />}
      {shape.statuses && (
        <StatusFilter
          statuses={shape.statuses}
          value={status}
          onChange={(next) => (setStatus(next), setPage(1))}
        />
      )}
      <p role="status" class="notice">
        {notice}
      </p>
      {loaded.state === "loading" && <Loading />}
      {loaded.state === "failed" && <Failed error={loaded.error} what="list" />}
      {answer && (
        <ScreenTable
          shape={shape}
          rows={Array.isArray(answer) ? answer : answer.data}
          onAct={act}
          cellOf={
            screen === "members"
              ? memberRoles(api, view, (text) => (setNotice(text), reload()))
              : undefined
          }
        />
      )}
      {meta && <ScreenPages meta={meta} onPage={setPage} />}
    </>
  );
}

/** Previous and next, when the list has more than one page. */
function ScreenPages(props: { meta: PageMeta; onPage: (page: number) => void }) {
  const { meta } = props;
  if (meta.last_page <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <PageButtons current={meta.current_page} last={meta.last_page} onPage={props.onPage} />
    </nav>
  );
}

/** A cell drawn otherwise than as text (undefined: as text). */
type CellOf = (row: AnyRecord, column: string) => ComponentChild | undefined;

/**
 * With tenancy, for a role of `tenancy.manage` in the tenant: each member's role as a choice, changed
 * in place (PATCH /api/members/{user}); the API decides again (the last owner stays one).
 */
function memberRoles(
  api: AdminApi,
  view: AdminView,
  done: (message: string) => void,
): CellOf | undefined {
  const tenancy = view.extras.tenancy;
  if (!tenancy || view.tenantRole === undefined || !tenancy.manage.includes(view.tenantRole))
    return undefined;
  return (row, column) => {
    if (column !== "role") return undefined;
    const user = row.user as { hash: string; name: string };
    async function change(role: string) {
      const result = await api.call(
        "PATCH",
        `/api/members/${encodeURIComponent(user.hash)}`,
        "data",
        { role },
      );
      done(result.error === undefined ? `${user.name} is now ${role}.` : result.error.message);
    }
    return (
      <select
        aria-label={`Role of ${user.name}`}
        value={String(row.role)}
        onChange={(event) => void change((event.currentTarget as HTMLSelectElement).value)}
      >
        {tenancy.roles.map((role) => (
          <option key={role} value={role}>
            {role}
          </option>
        ))}
      </select>
    );
  };
}

function ScreenTable(props: {
  shape: ScreenShape;
  rows: readonly AnyRecord[];
  onAct: (row: AnyRecord) => void;
  cellOf?: CellOf | undefined;
}) {
  const { shape, rows } = props;
  if (rows.length === 0) return <p>None.</p>;
  return (
    <div class="table-wrap" role="region" aria-label={`${shape.title} table`} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {shape.columns.map((column) => (
              <th scope="col" key={column}>
                {column.replaceAll("_", " ")}
              </th>
            ))}
            {shape.row && (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={String(row.hash ?? index)}>
              {shape.columns.map((column) => (
                <td key={column}>{props.cellOf?.(row, column) ?? cell(row[column])}</td>
              ))}
              {shape.row && (
                <td>
                  {(shape.row.when?.(row) ?? true) && (
                    <button type="button" onClick={() => props.onAct(row)}>
                      {shape.row.label}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Narrows a list to one status (`?status=`), or shows every one. */
function StatusFilter(props: {
  statuses: readonly string[];
  value: string;
  onChange: (status: string) => void;
}) {
  return (
    <div class="field">
      <label for="screen-status">Status</label>
      <select
        id="screen-status"
        value={props.value}
        onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value)}
      >
        <option value="">All</option>
        {props.statuses.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Invites someone to the platform with a role (POST /api/auth/invitations). */
function InviteForm(props: { api: AdminApi; roles: readonly string[]; onDone: () => void }) {
  const [failure, setFailure] = useState<
    { message: string; errors: Readonly<Partial<Record<string, readonly string[]>>> } | undefined
  >();
  async function submit(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const result = await props.api.call("POST", "/api/auth/invitations", "data", {
      email: data.get("email"),
      role: data.get("role"),
    });
    if (result.error !== undefined)
      return setFailure({
        message: result.error.message,
        errors: "errors" in result.error ? result.error.errors : {},
      });
    setFailure(undefined);
    form.reset();
    props.onDone();
  }
  return (
    <form class="invite" onSubmit={submit} noValidate aria-label="Invite">
      {failure && <ErrorSummary message={failure.message} errors={failure.errors} />}
      <TextInput name="email" label="E-mail" type="email" required errors={failure?.errors.email} />
      <div class="field">
        <label for="field-role">Role</label>
        <select id="field-role" name="role">
          {props.roles.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" class="primary">
        Invite
      </button>
    </form>
  );
}
