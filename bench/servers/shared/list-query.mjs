// `?page=` and `?per_page=` exactly as the service validates them (http/list-query.ts). The
// benchmark servers implement only these two list parameters: any other one is a 422 here, where
// the service would also accept its filters, `sort`, `with` and `with_trashed`.

export const defaultPerPage = 15;
export const maxPerPage = 100;

function label(name) {
  return name.replaceAll("_", " ");
}

// The service caps pages so that offsets stay safe integers (http/list-query.ts, maxPage).
const maxPage = 2_147_483_647;

function integerParameter(raw, fallback, max, key, fail) {
  if (raw === undefined) return fallback;
  if (!/^[+-]?\d+$/.test(raw)) {
    fail(key, `The ${label(key)} field must be an integer.`);
    return fallback;
  }
  const value = Number(raw);
  if (value < 1 || value > max || raw.replace(/^[+-]?0*/, "").length > 15) {
    fail(key, `The ${label(key)} field must be between 1 and ${max}.`);
    return fallback;
  }
  return value;
}

/** query: the object node's querystring.parse gives (Express's "simple" parser). */
export function parsePageQuery(query) {
  const errors = {};
  const fail = (key, message) => (errors[key] ??= []).push(message);
  const single = (key) => {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== "string") {
      fail(key, `The ${label(key)} parameter must be given once.`);
      return undefined;
    }
    return value;
  };
  const page = integerParameter(single("page"), 1, maxPage, "page", fail);
  const perPage = integerParameter(single("per_page"), defaultPerPage, maxPerPage, "per_page", fail);
  for (const key of Object.keys(query))
    if (key !== "page" && key !== "per_page") fail(key, `The ${label(key)} parameter is not supported.`);
  return Object.keys(errors).length > 0 ? { errors } : { page, perPage };
}
