// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * A path a project's own code imports (the mail templates of src/custom/mail/, and `ctx.mail`'s
 * message): it stays here, whatever folder of the runtime the modules live in
 * (docs/architecture.md "The runtime: layers").
 */
export {
  html,
  escapeHtml,
  SafeHtml,
  type MailMessage,
  type RenderedMail,
} from "../mail/message.js";
export type { MailSender } from "../mail/mail-sender.js";
export type {
  AccountMailTemplates,
  InvitationMailInput,
  LinkMailInput,
  NoticeMailInput,
  TenantInvitationMailInput,
} from "../accounts/account-mails.js";
