import type { MailSpec, ProjectSpec } from "../spec/types.js";
import type { AuthModel, MailModel } from "./types.js";

/** hashapi.yaml's `auth` as the runtime applies it. */
export function authModel(project: ProjectSpec): AuthModel {
  const { ttl, refreshTtl, roles, defaultRole, declaresRoles, signup, mfa, passwords, tokens, invitations } = project.auth;
  // A tenant's managers invite people into it whenever mail can carry the link.
  const acceptsInvitations = invitations !== undefined || (project.tenancy !== undefined && project.mail !== undefined);
  return { ttl, refreshTtl, roles, defaultRole, declaresRoles, ...(signup ? { signup } : {}), ...(mfa ? { mfa } : {}), ...(invitations ? { invitations } : {}), acceptsInvitations, inviters: invitations ?? [], passwords, tokens };
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

/**
 * The users' columns that writes may set and no read selects (so no route, history or webhook can
 * output them): the start of their valid sessions, and with `auth.mfa` the second factor's secrets.
 */
export function writeOnlyUserColumns(project: ProjectSpec): { name: string; kind: "string" | "datetime" | "integer" }[] {
  return [
    { name: "sessions_from", kind: "datetime" },
    ...(project.auth.mfa
      ? [
          { name: "mfa_secret", kind: "string" as const },
          { name: "mfa_pending", kind: "string" as const },
          { name: "mfa_enabled_at", kind: "datetime" as const },
          { name: "mfa_last_step", kind: "integer" as const },
        ]
      : []),
  ];
}
