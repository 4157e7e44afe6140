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
    ResetPasswordPayload: object({ token, password: password(min) }),
    ...(project.auth.signup ? { RegisterPayload: object({ name: { type: "string", minLength: 1, maxLength: 255 }, email, password: password(min) }) } : {}),
    ...(project.auth.signup?.verify ? { TokenPayload: object({ token }) } : {}),
  };
}

function operation(operationId: string, summary: string, description: string, payload: string, answer: { status: 200 | 202; message: string }, invalidToken?: string): object {
  const responses: Record<string, object> = {
    [String(answer.status)]: { description: answer.status === 202 ? "accepted: the same answer whether or not the address has an account" : "done", headers: { "Cache-Control": { schema: { type: "string", const: "no-store" } } }, content: json(ref("Message"), { type: "success", status: answer.status, message: answer.message }) },
    "422": invalidToken ? { description: "the payload is invalid, or the link's token is spent, expired or unknown", content: json(ref("ValidationError"), { type: "error", status: 422, message: invalidToken, errors: { token: [invalidToken] } }) } : responseRef("ValidationFailed"),
    ...(answer.status === 202 ? { "429": responseRef("TooManyRequests") } : {}),
    ...badRequest,
    ...bodyErrors,
    "500": responseRef("ServerError"),
  };
  return { post: { operationId, tags: ["auth"], summary, description, security: [], requestBody: { required: true, content: json(ref(payload)) }, responses } };
}

/** The account routes' paths. */
export function accountPaths(project: ProjectModel): Record<string, object> {
  if (!project.mail) return {};
  const limits = `Limited to ${project.mail.limits.perEmail} per address and ${project.mail.limits.perClient} per client address every ${project.mail.limits.windowSeconds} seconds (429 with Retry-After).`;
  const paths: Record<string, object> = {
    "/api/auth/forgot-password": operation("forgotPassword", "Mail a password reset link", `The link works once, for ${project.auth.tokens.resetMinutes} minutes. Nothing is sent to an address without an account; the answer is the same. ${limits}`, "EmailPayload", { status: 202, message: "If that address has an account, a link to reset its password has been sent to it." }),
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
