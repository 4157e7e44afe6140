// One HTTP exchange with a benchmark server, kept whole (status, the headers that matter, body
// text) so that servers can be compared byte for byte.

export const comparedHeaders = ["content-type", "cache-control", "pragma", "www-authenticate", "allow", "retry-after"];

export async function exchange(baseUrl, { method = "GET", path, token, body, contentType = "application/json", headers = {} }) {
  const requestHeaders = { ...headers };
  if (token !== undefined) requestHeaders.authorization = `Bearer ${token}`;
  if (body !== undefined) requestHeaders["content-type"] = contentType;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: requestHeaders,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const picked = {};
  for (const name of comparedHeaders) {
    const value = response.headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return { status: response.status, headers: picked, text: await response.text() };
}

export async function login(baseUrl, credentials) {
  const reply = await exchange(baseUrl, { method: "POST", path: "/api/auth/login", body: credentials });
  if (reply.status !== 200) throw new Error(`login at ${baseUrl} answered ${reply.status}: ${reply.text}`);
  return JSON.parse(reply.text).data.access_token;
}
