// The requests of the list-query benchmark (bench/lists.mjs). Each scenario rotates over values
// (weeks, pages, name fragments, cursors) so that no server answers from a warm cache only; the
// same scenario sends the same sequence to every server.

export const listLabels = {
  range: "GET /api/appointments?filter[scheduled_at][gte]=…&[lt]=… (a week)",
  in: "GET /api/appointments?filter[status][in]=scheduled,completed&page=N",
  contains: "GET /api/patients?filter[name][contains]=…",
  search: "GET /api/patients?search=patient N",
  with: "GET /api/doctors?with=specialties&page=N",
  "cursor-first": "GET /api/patients?cursor= (first page)",
  "cursor-deep": "GET /api/patients?cursor=… (every position)",
};

const query = (parameters) => new URLSearchParams(parameters).toString().replaceAll("%5B", "[").replaceAll("%5D", "]");

/**
 * seeded: from list-seed.mjs (or seed.mjs for the cursor ones); token: this server's bearer token;
 * cursors: this server's own cursors, for cursor-deep. Returns { label, path(turn), headers }.
 */
export function listScenario(id, { seeded, token, cursors }) {
  const signedIn = { authorization: `Bearer ${token}` };
  const pagesOf = (rows) => Math.max(1, Math.ceil(rows / 15));
  const scenario = (path, headers = signedIn) => ({
    id,
    label: listLabels[id],
    path,
    headers,
  });
  switch (id) {
    case "range":
      return scenario((turn) => {
        const start = seeded.weekStarts[turn % seeded.weekStarts.length];
        return `/api/appointments?${query({ "filter[scheduled_at][gte]": start, "filter[scheduled_at][lt]": seeded.weekEnd(start) })}`;
      });
    case "in": {
      const pages = pagesOf((seeded.appointments * 2) / 3);
      return scenario((turn) => `/api/appointments?${query({ "filter[status][in]": "scheduled,completed", page: String((turn % pages) + 1) })}`);
    }
    // "t 12" is in Patient 12, 120–129, 1200–1299…: a hundred-odd matches in 10,000 rows.
    case "contains":
      return scenario((turn) => `/api/patients?${query({ "filter[name][contains]": `t ${(turn % 899) + 10}` })}`);
    case "search":
      return scenario((turn) => `/api/patients?${query({ search: `patient ${(turn % 899) + 10}` })}`);
    // Doctors are public in the example: no token, on both servers.
    case "with": {
      const pages = pagesOf(seeded.doctors);
      return scenario((turn) => `/api/doctors?with=specialties&page=${(turn % pages) + 1}`, {});
    }
    case "cursor-first":
      return scenario(() => "/api/patients?cursor=");
    case "cursor-deep":
      return scenario((turn) => `/api/patients?cursor=${cursors[turn % cursors.length]}`);
    default:
      throw new Error(`unknown list scenario ${id}`);
  }
}

/** The scenarios that filter, search or nest (the cursor ones are measured by table size). */
export const filteredIds = ["range", "in", "contains", "search", "with"];

/** One request of each scenario, and a cursor's second page, for list-plans.mjs's captureListSql. */
export function captureRequests(seeded, token) {
  return [
    ...filteredIds.map((id) => {
      const scenario = listScenario(id, { seeded, token });
      return { id, request: () => ({ path: scenario.path(1), headers: scenario.headers }) };
    }),
    { id: "cursor-first", request: () => ({ path: "/api/patients?cursor=", token }) },
    // A later page: the keyset condition the first page does not have.
    { id: "cursor-deep", request: (replies) => ({ path: `/api/patients${new URL(replies["cursor-first"].links.next).search}`, token }) },
  ];
}

/** A request source for slices.mjs's alternate(). */
export function requests(scenario) {
  let turn = 0;
  return () => ({
    method: "GET",
    path: scenario.path(turn++),
    headers: scenario.headers,
  });
}

/** This server's cursors at every `step` rows of the patients' default order (walked with per_page=step). */
export async function collectCursors(baseUrl, token, step = 100) {
  const cursors = [];
  let next = `${baseUrl}/api/patients?per_page=${step}&cursor=`;
  while (next) {
    const response = await fetch(next, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) throw new Error(`walking cursors at ${baseUrl}: ${response.status} ${await response.text()}`);
    const body = await response.json();
    if (body.meta.next_cursor) cursors.push(body.meta.next_cursor);
    next = body.links.next;
  }
  return cursors;
}
