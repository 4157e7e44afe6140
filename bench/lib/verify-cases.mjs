// What every server must answer exactly like the service before anything is measured: status,
// the headers that matter and the body, byte for byte (ports normalised). Replies whose values
// differ by nature (new hashes, times, tokens) are checked by shape in verify.mjs.

export function verifyCases({ token, forged, revoked, seededHash, seededCpf, otherCpf, lastPage, admin }) {
  const auth = { token };
  const cases = [
    { name: "show a seeded patient", path: `/api/patients/${seededHash}`, ...auth },
    { name: "list page 1", path: "/api/patients?page=1", ...auth },
    { name: "list without page", path: "/api/patients", ...auth },
    { name: "list page 2", path: "/api/patients?page=2", ...auth },
    { name: "list the last page", path: `/api/patients?page=${lastPage}`, ...auth },
    { name: "list past the last page", path: `/api/patients?page=${lastPage + 5}`, ...auth },
    { name: "list per_page=7 page=3", path: "/api/patients?per_page=7&page=3", ...auth },
    { name: "list page=0", path: "/api/patients?page=0", ...auth },
    { name: "list page=abc", path: "/api/patients?page=abc", ...auth },
    { name: "list a repeated page", path: "/api/patients?page=1&page=2", ...auth },
    { name: "list per_page=101", path: "/api/patients?per_page=101", ...auth },
    { name: "show an unknown hash", path: "/api/patients/PAT_AAAAAAAA", ...auth },
    { name: "show a malformed hash", path: "/api/patients/not-a-hash", ...auth },
    { name: "show another resource's hash", path: "/api/patients/DOC_AAAAAAAA", ...auth },
    { name: "an unknown route", path: "/api/nothing-here" },
    { name: "show without a token", path: `/api/patients/${seededHash}` },
    { name: "list with a malformed Authorization", path: "/api/patients", headers: { authorization: "Token abc" } },
    { name: "a revoked token", path: `/api/patients/${seededHash}`, token: revoked },
    ...Object.entries(forged).map(([what, forgedToken]) => ({ name: `show with ${what}`, path: `/api/patients/${seededHash}`, token: forgedToken })),
    { name: "DELETE on the collection", method: "DELETE", path: "/api/patients", ...auth },
    { name: "create without fields", method: "POST", path: "/api/patients", body: {}, ...auth },
    { name: "create with every field wrong", method: "POST", path: "/api/patients", body: { name: "", cpf: "12", phone: 5, extra: true }, ...auth },
    { name: "create with nulls", method: "POST", path: "/api/patients", body: { name: null, cpf: null, phone: null }, ...auth },
    { name: "create with a too long name", method: "POST", path: "/api/patients", body: { name: "x".repeat(121), cpf: "98765432100" }, ...auth },
    { name: "create with a taken cpf", method: "POST", path: "/api/patients", body: { name: "Dup", cpf: seededCpf }, ...auth },
    { name: "create invalid and with a taken cpf", method: "POST", path: "/api/patients", body: { name: 7, cpf: seededCpf }, ...auth },
    { name: "create with a client hash", method: "POST", path: "/api/patients", body: { hash: "PAT_AAAAAAAA", name: "A", cpf: "98765432100" }, ...auth },
    { name: "create with an array body", method: "POST", path: "/api/patients", body: [1, 2], ...auth },
    { name: "create with __proto__", method: "POST", path: "/api/patients", body: '{"__proto__":{"admin":true},"name":"A","cpf":"98765432100"}', ...auth },
    { name: "create with malformed JSON", method: "POST", path: "/api/patients", body: '{"name":', ...auth },
    { name: "create with a text body", method: "POST", path: "/api/patients", body: "name=A", contentType: "text/plain", ...auth },
    { name: "update an unknown hash", method: "PUT", path: "/api/patients/PAT_AAAAAAAA", body: { name: "A" }, ...auth },
    { name: "update with a null name", method: "PUT", path: `/api/patients/${seededHash}`, body: { name: null, cpf: "1" }, ...auth },
    { name: "update invalid and to a taken cpf", method: "PUT", path: `/api/patients/${seededHash}`, body: { cpf: otherCpf, phone: "x".repeat(21) }, ...auth },
    { name: "update to a taken cpf", method: "PUT", path: `/api/patients/${seededHash}`, body: { cpf: otherCpf }, ...auth },
    { name: "login without fields", method: "POST", path: "/api/auth/login", body: {} },
    { name: "login with a bad e-mail", method: "POST", path: "/api/auth/login", body: { email: "nobody", password: "" } },
    { name: "login with a wrong password", method: "POST", path: "/api/auth/login", body: { email: admin.email, password: "wrong password" } },
    { name: "login with an unknown e-mail", method: "POST", path: "/api/auth/login", body: { email: "nobody@example.com", password: "x" } },
  ];
  return cases;
}
