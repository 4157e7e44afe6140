// Laravel's paginator shape, built like the service's http/pagination.ts: absolute links that keep
// the other query parameters, `page` (or `cursor`) set last.

/** The list's URL for another value of `parameter`, keeping the query's other parameters (linksBy in the service). */
export function linksBy(path, query, parameter) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (key !== parameter && typeof value === "string") params.set(key, value);
  return (value) => {
    const linkQuery = new URLSearchParams(params);
    linkQuery.set(parameter, String(value));
    return `${path}?${linkQuery.toString()}`;
  };
}

export function paginate(path, query, page, perPage, total, count) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const link = linksBy(path, query, "page");
  const from = count === 0 ? null : (page - 1) * perPage + 1;
  return {
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: from === null ? null : from + count - 1,
      total,
    },
  };
}
