import type { MailSpec, ProjectSpec } from "../spec/types.js";
import type { AuthModel, MailModel } from "./types.js";

/** hashapi.yaml's `auth` as the runtime applies it. */
export function authModel(project: ProjectSpec): AuthModel {
  const { ttl, refreshTtl, roles, defaultRole, declaresRoles, signup, passwords, tokens } = project.auth;
  return { ttl, refreshTtl, roles, defaultRole, declaresRoles, ...(signup ? { signup } : {}), passwords, tokens };
}

/** hashapi.yaml's `mail`: the transport by its variable's name, or the literal one. */
export function mailModel(mail: MailSpec): MailModel {
  const variable = /^\$\{([A-Z][A-Z0-9_]*)\}$/.exec(mail.transport)?.[1];
  return {
    from: mail.from,
    transport: variable === undefined ? { literal: mail.transport } : { env: variable },
    links: mail.links,
    limits: mail.limits,
  };
}
