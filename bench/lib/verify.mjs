// Before measuring: every server must answer like the service. Fails loudly, with a diff per
// disagreement, so that a benchmark never compares servers that do different work.
import { createTwoFilesPatch } from "diff";
import { exchange, login } from "./http-client.mjs";
import { shapeOf, tokenShape } from "./shapes.mjs";
import { storedPatientShape } from "./stored-formats.mjs";
import { verifyCases } from "./verify-cases.mjs";

function normalisePort(text, baseUrl) {
  return text.replaceAll(new URL(baseUrl).host, "127.0.0.1:PORT");
}

function render(reply, indent) {
  let body = reply.text;
  if (indent) {
    try {
      body = JSON.stringify(JSON.parse(reply.text), null, 2);
    } catch {}
  }
  return `${reply.status}\n${Object.entries(reply.headers).map(([name, value]) => `${name}: ${value}`).join("\n")}\n\n${body}\n`;
}

/** Compared as sent; shown indented, unless indenting hides the difference (formatting only). */
function difference(name, baselineName, baseline, otherName, other) {
  if (render(baseline, false) === render(other, false)) return undefined;
  const indented = render(baseline, true) !== render(other, true);
  const [a, b] = [render(baseline, indented), render(other, indented)];
  return `✗ ${name}: ${otherName} differs from ${baselineName}\n${createTwoFilesPatch(baselineName, otherName, a, b, "", "", { context: 3 })}`;
}

/** The same request to every server; differences from the first (the service) are collected. */
async function compareEverywhere(name, servers, requestFor, view, problems) {
  const replies = [];
  for (const server of servers) replies.push(view(await exchange(server.baseUrl, requestFor(server)), server));
  for (let index = 1; index < servers.length; index += 1) {
    const problem = difference(name, servers[0].name, replies[0], servers[index].name, replies[index]);
    if (problem) problems.push(problem);
  }
}

const bytesView = (reply, server) => ({ ...reply, text: normalisePort(reply.text, server.baseUrl) });

function shapeView(reply) {
  let shape = reply.text;
  try {
    const body = JSON.parse(reply.text);
    shape = JSON.stringify(shapeOf(body));
    if (typeof body?.data?.access_token === "string") shape += `\n${JSON.stringify(tokenShape(body.data.access_token))}`;
  } catch {}
  return { status: reply.status, headers: reply.headers, text: shape };
}

/**
 * servers: [{ name, baseUrl, databasePath, token }], the service first. context: the seeded data
 * (see verify-cases.mjs), nextCpf() for unique cpfs.
 */
export async function verifyServers(servers, context) {
  const problems = [];
  const cases = verifyCases({ ...context, token: servers[0].token });
  for (const testCase of cases) {
    // The service's own token stands for "a valid token": each server gets its own.
    const requestFor = (server) => ({ ...testCase, token: testCase.token === servers[0].token ? server.token : testCase.token });
    await compareEverywhere(testCase.name, servers, requestFor, bytesView, problems);
  }

  const created = new Map();
  const createView = (reply, server) => {
    if (reply.status === 201) created.set(server.name, JSON.parse(reply.text).data.hash);
    return shapeView(reply);
  };
  const createRequest = (server) => ({ method: "POST", path: "/api/patients", token: server.token, body: { name: "Verify Create", cpf: context.nextCpf(), phone: null } });
  await compareEverywhere("create a patient (shape)", servers, createRequest, createView, problems);

  const changes = { name: "Verify Update", phone: "+55 11 90000-0000" };
  const updateView = (reply) => {
    const view = shapeView(reply);
    const data = JSON.parse(reply.text).data ?? {};
    if (data.name !== changes.name || data.phone !== changes.phone) view.text += "\n(the reply does not carry the changed fields)";
    return view;
  };
  const updateRequest = (server) => ({ method: "PUT", path: `/api/patients/${created.get(server.name)}`, token: server.token, body: changes });
  await compareEverywhere("update a patient (shape)", servers, updateRequest, updateView, problems);

  const loginRequest = () => ({ method: "POST", path: "/api/auth/login", body: context.admin });
  await compareEverywhere("login (shape)", servers, loginRequest, shapeView, problems);

  // On SQLite a column takes any type and dates are text: prove the writers store what Prisma
  // stores. PostgreSQL's columns are typed (TIMESTAMP(3)), so there the schema proves it.
  const seededShape = servers[0].databasePath === undefined ? undefined : storedPatientShape(servers[0].databasePath, context.seededHash);
  for (const server of seededShape === undefined ? [] : servers) {
    const stored = storedPatientShape(server.databasePath, created.get(server.name));
    const expected = { ...seededShape, phone: "text" };
    if (JSON.stringify(stored) !== JSON.stringify(expected))
      problems.push(`✗ the row ${server.name} created is stored unlike the seeded rows:\n  seeded  ${JSON.stringify(expected)}\n  created ${JSON.stringify(stored)}`);
  }

  if (problems.length > 0) {
    const error = new Error(`${problems.length} disagreement(s) between the servers:\n\n${problems.join("\n")}`);
    error.problems = problems;
    throw error;
  }
  return { cases: cases.length + 3, servers: servers.map((server) => server.name) };
}

export { login };
