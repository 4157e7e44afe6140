// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * The client's runtime: one `fetch` per call, no dependencies, for Node ≥ 20 and browsers. The
 * generated `client.ts` types each resource and builds its routes from these parts.
 */
export { uploadable, type Uploaded, type UploadBody, type UploadRoutes } from "./uploads.js";
export {
  authClient,
  keepingToken,
  type AuthRoutes,
  type MfaChallenge,
  type Credentials,
  type Session,
  type SessionInfo,
} from "./auth.js";
export {
  acceptanceClient,
  invitationsClient,
  passwordResetClient,
  secondFactorClient,
  signupClient,
  verificationClient,
  type Accepted,
  type AcceptanceRoutes,
  type Invitation,
  type InvitationRoutes,
  type PasswordResetRoutes,
  type Registration,
  type SecondFactorRoutes,
  type SignupRoutes,
  type VerificationRoutes,
} from "./accounts.js";
export {
  joinClient,
  memberInvitationsClient,
  membersClient,
  type JoinRoutes,
  type Member,
  type MemberInvitationRoutes,
  type MemberRoutes,
  type TenantMembership,
} from "./members.js";
export { listQuery, type FilterValue, type ListParams } from "./query.js";
export {
  audited,
  linkedClient,
  resourceClient,
  restorable,
  type CursorMeta,
  type HistoryEntry,
  type HistoryRoute,
  type LinkedRoutes,
  type Page,
  type PageLinks,
  type PageMeta,
  type ResourceRoutes,
  type ResourceTypes,
  type RestoreRoute,
  type WithLoaded,
} from "./resources.js";
export {
  ApiError,
  unwrap,
  type ApiFailure,
  type ErrorStatus,
  type NetworkFailure,
  type OtherFailure,
  type Result,
  type TooManyRequests,
  type ValidationFailure,
} from "./result.js";
export { Transport, type ClientOptions } from "./transport.js";
