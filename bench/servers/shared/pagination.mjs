// Laravel's paginator shape, built like the service's http/pagination.ts: absolute links that keep
// the other query parameters, `page` set last.

export function paginate(path, query, page, perPage, total, count) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (key !== "page" && typeof value === "string") params.set(key, value);
  const link = (target) => {
    const linkQuery = new URLSearchParams(params);
    linkQuery.set("page", String(target));
    return `${path}?${linkQuery.toString()}`;
  };
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
