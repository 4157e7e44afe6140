import { didYouMean } from "./problem.js";
import type { SpecSource } from "./source.js";
import type { Problem, ProjectSpec } from "./types.js";

const environmentVariable = /^\$\{[A-Z][A-Z0-9_]*\}$/;
const literalTransport = /^(log:|file:\S+|smtps?:\/\/\S+)$/;
/** A front end's page: a path, or a whole https URL (http only for a local address). */
const linkPage = /^(\/[^\s?#]*(\?[^\s#]*)?|https:\/\/\S+|http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/\S*)?)$/;

/**
 * hashapi.yaml's `auth.signup` and `mail`: sign-up needs mail (its confirmation, or the notice
 * that the address has an account), its role is one of the roles and never one that manages users
 * or reads the service's background work (the first role) when there are others, and the mail's
 * transport and links can be read.
 */
export function checkAccounts(project: ProjectSpec, source: SpecSource): Problem[] {
  const problems: Problem[] = [];
  const { signup, roles } = project.auth;
  if (signup) {
    if (!project.mail)
      problems.push(source.problem(["auth", "signup"], "sign-up sends mail (the link that confirms an address, or a notice to an address that already has an account): declare `mail:` with its `from` and `transport`"));
    if (!roles.includes(signup.role))
      problems.push(source.problem(["auth", "signup", "role"], `"${signup.role}" is not one of auth.roles (${roles.join(", ")})${didYouMean(signup.role, roles)}`));
    else if (project.auth.manageUsers?.includes(signup.role))
      problems.push(source.problem(["auth", "signup", "role"], `"${signup.role}" manages users (auth.users.manage): anyone could sign up and manage every account; give sign-ups a role that does not`));
    else if (roles.length > 1 && signup.role === roles[0])
      problems.push(source.problem(["auth", "signup", "role"], `"${signup.role}" is the first (most privileged) role, which reads webhook deliveries and jobs: give sign-ups a role below it`));
  }
  project.auth.invitations?.forEach((role, index) => {
    if (!roles.includes(role))
      problems.push(source.problem(["auth", "invitations", index], `"${role}" is not one of auth.roles (${roles.join(", ")})${didYouMean(role, roles)}`));
  });
  if (project.auth.invitations && !project.mail)
    problems.push(source.problem(["auth", "invitations"], "invitations are sent by mail: declare `mail:` with its `from` and `transport`"));
  project.auth.mfa?.required.forEach((role, index) => {
    if (!roles.includes(role))
      problems.push(source.problem(["auth", "mfa", "required", index], `"${role}" is not one of auth.roles (${roles.join(", ")})${didYouMean(role, roles)}`));
  });
  const mail = project.mail;
  if (mail) {
    if (!environmentVariable.test(mail.transport) && !literalTransport.test(mail.transport))
      problems.push(source.problem(["mail", "transport"], `"${mail.transport}" is not a transport: write \${MAIL_URL} (read at start-up), log:, file:<folder>, or smtp://host:587`));
    else if (/^smtps?:\/\/[^@/]*:[^@/]*@/.test(mail.transport))
      problems.push(source.problem(["mail", "transport"], "the transport holds a password, and hashapi.yaml is committed: read it from the environment with ${MAIL_URL}"));
    if (!/^[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>$|^[^\s<>@]+@[^\s<>@]+$/.test(mail.from))
      problems.push(source.problem(["mail", "from"], `"${mail.from}" is not a sender: write an address, or a name and one, e.g. "Recruiting <no-reply@example.com>"`));
    for (const [link, page] of Object.entries(mail.links))
      if (!linkPage.test(page))
        problems.push(source.problem(["mail", "links", link], `"${page}" is not a page: write a path of your front end (after APP_URL), such as /reset-password, or a whole https URL`));
  }
  return problems;
}
