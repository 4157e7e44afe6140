import type { ProjectModel } from "../model/types.js";
import type { JsonSchema } from "./openapi-parts.js";
import { badRequest, bodyErrors, json, ref, responseRef } from "./openapi-parts.js";

/*
 * openapi.json's account routes (runtime accounts/): the password reset with `mail:`, sign-up with
 * `auth.signup`, and the confirmation of its address with `auth.signup.verify`. The routes that take
 * an address answer 202 whatever it is: the document says so, as the contract does.
 */

const email: JsonSchema = { type: "string", format: "email", maxLength: 255 };
const token: JsonSchema = { type: "string", minLength: 1, maxLength: 200, description: "the token of the mailed link (its `token` query parameter)" };

function password(min: number): JsonSchema {
  return { type: "string", minLength: min, maxLength: 1024, description: `at least ${min} characters; a commonly used password, or the account's own name or e-mail, is refused` };
}

function object(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: "object", required: Object.keys(properties), properties, additionalProperties: false };
}

/** The request bodies of the account routes the project serves. */
export function accountSchemas(project: ProjectModel): Record<string, JsonSchema> {
  if (!project.mail) return {};
  const min = project.auth.passwords.min;
  return {
    EmailPayload: object({ email }),
    ChangeEmailPayload: object({ email, password: { type: "string", minLength: 1, maxLength: 1024, description: "the current password" } }),
    TokenPayload: object({ token }),
    ResetPasswordPayload: object({ token, password: password(min) }),
    ...(project.auth.signup ? { RegisterPayload: object({ name: { type: "string", minLength: 1, maxLength: 255 }, email, password: password(min) }) } : {}),
  };
}

function operation(operationId: string, summary: string, description: string, payload: string, answer: { status: 200 | 202; message: string }, invalidToken?: string, signedIn = false): object {
  const responses: Record<string, object> = {
    [String(answer.status)]: { description: answer.status === 202 ? "accepted: the same answer whether or not the address has an account" : "done", headers: { "Cache-Control": { schema: { type: "string", const: "no-store" } } }, content: json(ref("Message"), { type: "success", status: answer.status, message: answer.message }) },
    "422": invalidToken ? { description: "the payload is invalid, or the link's token is spent, expired or unknown", content: json(ref("ValidationError"), { type: "error", status: 422, message: invalidToken, errors: { token: [invalidToken] } }) } : responseRef("ValidationFailed"),
    ...(answer.status === 202 ? { "429": responseRef("TooManyRequests") } : {}),
    ...(signedIn ? { "401": responseRef("Unauthenticated") } : {}),
    ...badRequest,
    ...bodyErrors,
    "500": responseRef("ServerError"),
  };
  return { post: { operationId, tags: ["auth"], summary, description, ...(signedIn ? {} : { security: [] }), requestBody: { required: true, content: json(ref(payload)) }, responses } };
}

/** The account routes' paths. */
export function accountPaths(project: ProjectModel): Record<string, object> {
  if (!project.mail) return {};
  const limits = `Limited to ${project.mail.limits.perEmail} per address and ${project.mail.limits.perClient} per client address every ${project.mail.limits.windowSeconds} seconds (429 with Retry-After).`;
  const paths: Record<string, object> = {
    "/api/auth/forgot-password": operation("forgotPassword", "Mail a password reset link", `The link works once, for ${project.auth.tokens.resetMinutes} minutes. Nothing is sent to an address without an account; the answer is the same. ${limits}`, "EmailPayload", { status: 202, message: "If that address has an account, a link to reset its password has been sent to it." }),
    "/api/auth/email": operation("changeEmail", "Move the caller's account to another address: the link goes there", "Nothing changes until the link is followed. The password is asked again (5 tries a minute). An address that has an account is sent nothing; the answer is the same.", "ChangeEmailPayload", { status: 202, message: "Check the new address: the change is made when its link is followed." }, undefined, true),
    "/api/auth/email/confirm": operation("confirmEmail", "Follow a change of address's link: the account takes the new address", "Every session ends (sign in again with the new address); the old address is told.", "TokenPayload", { status: 200, message: "Your email address has been changed: sign in with it." }, "This link to confirm an email address is invalid or has expired."),
    "/api/auth/reset-password": operation("resetPassword", "Set a new password with a reset link's token", "Every session signed in before ends, every other reset link of the account is void, and the owner is told by mail.", "ResetPasswordPayload", { status: 200, message: "Your password has been reset: sign in with it." }, "This password reset token is invalid."),
  };
  const signup = project.auth.signup;
  if (signup) {
    const made = signup.verify ? `The account (role ${signup.role}) is made when the mailed link is followed (it works once, for ${project.auth.tokens.signupMinutes} minutes).` : `The account (role ${signup.role}) is made at once; sign in with /api/auth/login.`;
    paths["/api/auth/register"] = operation("register", "Sign up", `${made} An address that already has an account is told so by mail instead; the answer is the same. ${limits}`, "RegisterPayload", { status: 202, message: "Check your email to finish signing up." });
    if (signup.verify) {
      paths["/api/auth/verify-email"] = operation("verifyEmail", "Confirm a sign-up's address with its link's token: the account is made", "Sign in with /api/auth/login afterwards.", "TokenPayload", { status: 200, message: "Your email address has been verified: you can sign in." }, "This verification link is invalid or has expired.");
      paths["/api/auth/verify-email/resend"] = operation("resendVerification", "Mail another link for the address's waiting sign-up", `Nothing is sent when the address has no sign-up waiting; the answer is the same. ${limits}`, "EmailPayload", { status: 202, message: "If that address has a sign-up waiting, a new link has been sent to it." });
    }
  }
  return paths;
}

/** The second factor's request bodies and the login's challenge (with `auth.mfa`). */
export function secondFactorSchemas(project: ProjectModel): Record<string, JsonSchema> {
  if (!project.auth.mfa) return {};
  const code: JsonSchema = { type: "string", minLength: 1, maxLength: 20, description: "a 6-digit code of the authenticator app, or a recovery code (XXXXX-XXXXX)" };
  return {
    MfaChallenge: { type: "object", required: ["mfa_required", "mfa_token", "expires_in"], properties: { mfa_required: { const: true }, mfa_token: { type: "string" }, expires_in: { type: "integer", description: "seconds" } }, additionalProperties: false, description: "a login whose user has a second factor: trade mfa_token at /api/auth/mfa/verify" },
    MfaSetupPayload: object({ password: { type: "string", minLength: 1, maxLength: 1024 } }),
    MfaSetup: { type: "object", required: ["secret", "otpauth_url"], properties: { secret: { type: "string", description: "base32, for typing into the app" }, otpauth_url: { type: "string", description: "otpauth://totp/…, for a QR code" } }, additionalProperties: false },
    MfaConfirmPayload: object({ code }),
    MfaRecoveryCodes: { type: "object", required: ["recovery_codes"], properties: { recovery_codes: { type: "array", items: { type: "string" }, minItems: 10, maxItems: 10, description: "each works once; shown only now" } }, additionalProperties: false },
    MfaDisablePayload: object({ password: { type: "string", minLength: 1, maxLength: 1024 }, code }),
    MfaVerifyPayload: object({ mfa_token: { type: "string", minLength: 1, maxLength: 200 }, code }),
  };
}

/** The second factor's paths (with `auth.mfa`). */
export function secondFactorPaths(project: ProjectModel): Record<string, object> {
  if (!project.auth.mfa) return {};
  const required = project.auth.mfa.required;
  const gate = required.length > 0 ? ` Users of ${required.join(", ")} must set one up: until they do, every other route answers them 403.` : "";
  const common = { ...badRequest, ...bodyErrors, "422": responseRef("ValidationFailed"), "429": responseRef("TooManyRequests"), "500": responseRef("ServerError") };
  const signedIn = { ...common, "401": responseRef("Unauthenticated") };
  const post = (operationId: string, summary: string, payload: string, ok: object, responses: object, description = "") => ({ post: { operationId, tags: ["auth"], summary, ...(description ? { description } : {}), ...(operationId === "verifyMfa" ? { security: [] } : {}), requestBody: { required: true, content: json(ref(payload)) }, responses: { "200": ok, ...responses } } });
  return {
    "/api/auth/mfa/setup": post("setupMfa", "Start setting up a second factor: a new TOTP secret, pending until confirmed", "MfaSetupPayload", { description: "the secret", content: json({ type: "object", properties: { type: { const: "success" }, status: { const: 200 }, data: ref("MfaSetup") } }) }, { ...signedIn, "403": responseRef("Forbidden"), "409": responseRef("Conflict") }, `The password is asked again.${gate}`),
    "/api/auth/mfa/confirm": post("confirmMfa", "Confirm the setup with a code: the second factor is on, other sessions end", "MfaConfirmPayload", { description: "the ten recovery codes, shown once", content: json({ type: "object", properties: { type: { const: "success" }, status: { const: 200 }, data: ref("MfaRecoveryCodes") } }) }, { ...signedIn, "409": responseRef("Conflict") }),
    "/api/auth/mfa/disable": post("disableMfa", "Turn the second factor off (password and a code)", "MfaDisablePayload", { description: "off", content: json(ref("Message")) }, { ...signedIn, "403": responseRef("Forbidden"), "409": responseRef("Conflict") }, "Refused (403) for a role that requires one."),
    "/api/auth/mfa/verify": post("verifyMfa", "The second step of a login: its challenge and a code (or a recovery code) for a session", "MfaVerifyPayload", { description: "a token", content: json({ type: "object", properties: { type: { const: "success" }, status: { const: 200 }, data: ref("Token") } }) }, common, "A wrong code spends nothing (5 tries a minute per user); a code or recovery code works once."),
  };
}

/** The invitations' schemas and paths (with `auth.invitations`). */
export function invitationSchemas(project: ProjectModel): Record<string, JsonSchema> {
  if (!project.auth.acceptsInvitations) return {};
  const accepting = { AcceptInvitationPayload: object({ token, name: { type: "string", minLength: 1, maxLength: 255 }, password: password(project.auth.passwords.min) }) };
  if (!project.auth.invitations) return accepting;
  return {
    ...accepting,
    AuthInvitation: { type: "object", required: ["hash", "email", "role", "invited_by", "created_at", "expires_at"], properties: { hash: { type: "string", examples: ["INV_7KX9MQ2B"] }, email, role: { type: "string", enum: [...project.auth.roles] }, invited_by: { type: ["string", "null"], description: "the inviter's public id (USR_…), null once their account is gone" }, created_at: { type: "string", format: "date-time" }, expires_at: { type: "string", format: "date-time" } }, additionalProperties: false },
    InvitationPayload: object({ email, role: { type: "string", enum: [...project.auth.roles], description: "at or below the inviter's own role" } }),
  };
}

export function invitationPaths(project: ProjectModel): Record<string, object> {
  if (!project.auth.acceptsInvitations) return {};
  const data = (schema: object, status: number) => json({ type: "object", required: ["type", "status", "data"], properties: { type: { const: "success" }, status: { const: status }, data: schema } });
  const accepting = {
    "/api/auth/invitations/accept": { post: { operationId: "acceptInvitation", tags: ["auth"], summary: "Accept an invitation with its link's token: the account is made and signed in", ...(project.tenancy ? { description: `An invitation into a ${project.tenancy.resource.names.label} also makes the account a member of it, with the invitation's role.` } : {}), security: [], requestBody: { required: true, content: json(ref("AcceptInvitationPayload")) }, responses: { "201": { description: "a token", headers: { "Cache-Control": { schema: { type: "string", const: "no-store" } } }, content: data(ref("Token"), 201) }, "422": { description: "invalid payload, or the link is spent, revoked or expired, or its address has an account", content: json(ref("ValidationError")) }, ...badRequest, ...bodyErrors, "500": responseRef("ServerError") } } },
    ...(project.tenancy ? { "/api/auth/invitations/join": { post: { operationId: "joinTenant", tags: ["auth"], summary: `Join the ${project.tenancy.resource.names.label} of an invitation to the caller's own address, with its link's token`, requestBody: { required: true, content: json({ type: "object", required: ["token"], additionalProperties: false, properties: { token } }) }, responses: { "201": { description: "the membership", content: data(ref("HashapiTenantMembership"), 201) }, "401": responseRef("Unauthenticated"), "409": responseRef("Conflict"), "422": { description: "invalid payload, or the link is spent, revoked, expired, the platform's or another address's", content: json(ref("ValidationError")) }, ...badRequest, ...bodyErrors, "500": responseRef("ServerError") } } } } : {}),
  };
  const inviters = project.auth.invitations;
  if (!inviters) return accepting;
  const access = { "x-roles": inviters, description: `For ${inviters.join(", ")} only (403 otherwise).` };
  const signedIn = { ...badRequest, "401": responseRef("Unauthenticated"), "403": responseRef("Forbidden"), "500": responseRef("ServerError") };
  return {
    ...accepting,
    "/api/auth/invitations": {
      get: { operationId: "listInvitations", tags: ["auth"], summary: "Pending invitations, newest first (at most 100)", ...access, responses: { "200": { description: "the invitations", content: data({ type: "array", items: ref("AuthInvitation") }, 200) }, ...signedIn } },
      post: { operationId: "invite", tags: ["auth"], summary: "Invite an address with a role: its owner gets a link to choose a name and a password", ...access, requestBody: { required: true, content: json(ref("InvitationPayload")) }, responses: { "201": { description: `the invitation (made whether or not the address has an account: its owner is told instead); its link works for ${project.auth.tokens.invitationDays} days`, content: data(ref("AuthInvitation"), 201) }, ...signedIn, ...bodyErrors, "422": responseRef("ValidationFailed"), "429": responseRef("TooManyRequests") } },
    },
    "/api/auth/invitations/{hash}": { parameters: [{ name: "hash", in: "path", required: true, schema: { type: "string" } }], delete: { operationId: "revokeInvitation", tags: ["auth"], summary: "Revoke a pending invitation: its link stops working", ...access, responses: { "200": { description: "revoked", content: json(ref("Message"), { type: "success", status: 200, message: "Invitation revoked." }) }, ...signedIn, "404": responseRef("NotFound") } } },
  };
}
