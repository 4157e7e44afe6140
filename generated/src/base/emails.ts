// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * An address as accounts store it (trimmed, NFC, lower-cased), so that one address is one account
 * however it is written: sign-up, invitations, changes of address and `npm run user:create` alike.
 */
export function storedEmail(email: string): string {
  return email.trim().normalize("NFC").toLowerCase();
}
