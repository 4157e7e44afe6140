// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { dictionary } from "@zxcvbn-ts/language-common";

/*
 * What a new password must be (hashapi.yaml `auth.passwords`): long enough, and not one that
 * people commonly choose. Length is the only composition rule (no "one digit, one capital": they
 * make passwords predictable, not strong); any character counts, spaces and emoji included, as
 * Unicode code points after NFKC, the form the hash is computed over (base/passwords.ts).
 */

/** The longest password accepted: scrypt's cost does not grow with it, but a request body's does. */
export const maxPasswordLength = 1024;

let common: ReadonlySet<string> | undefined;

/**
 * The common-password list: zxcvbn-ts's 49,000 most used passwords (from leaked sets), loaded on
 * the first check. Compared in lower case, so "Password1" is as refused as "password1".
 */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary["passwords-common"].map((password) => password.toLowerCase()));
  return common;
}

export interface PasswordPolicy {
  /** The fewest characters a password may have (hashapi.yaml `auth.passwords.min`, default 8). */
  readonly min: number;
}

/**
 * The problem with `password` as a new password of the account `email` (Laravel's wording), or
 * undefined when it may be used.
 */
export function passwordProblem(
  policy: PasswordPolicy,
  password: string,
  context: { email?: string; name?: string } = {},
): string | undefined {
  const length = [...password.normalize("NFKC")].length;
  if (length < policy.min) return `The password field must be at least ${policy.min} characters.`;
  if (length > maxPasswordLength)
    return `The password field must not be greater than ${maxPasswordLength} characters.`;
  const folded = password.normalize("NFKC").toLowerCase();
  const own = [context.email, context.email?.split("@")[0], context.name]
    .filter((word): word is string => typeof word === "string" && word.length > 0)
    .map((word) => word.normalize("NFKC").toLowerCase());
  if (own.includes(folded)) return "The password field must not be your name or email address.";
  if (
    commonPasswords().has(folded) ||
    isCommonStem(folded) ||
    isOneCharacter(folded) ||
    isRun(folded)
  )
    return "The given password has appeared in a data leak. Please choose a different password.";
  return undefined;
}

/**
 * "password12345", "!!dragon2024": a listed password with digits or symbols around it is the first
 * thing a guesser tries after the list itself.
 */
function isCommonStem(password: string): boolean {
  const stem = password.replace(/^[\d\W_]+|[\d\W_]+$/gu, "");
  return stem.length >= 4 && stem !== password && commonPasswords().has(stem);
}

/** "abcdefghijkl", "1234567890123", "987654321098": a run of characters in order, either way. */
function isRun(password: string): boolean {
  const points = [...password].map((character) => character.codePointAt(0)!);
  const step = (from: number, to: number) => {
    const digits = from >= 48 && from <= 57 && to >= 48 && to <= 57;
    return digits ? (((to - from) % 10) + 10) % 10 : to - from;
  };
  const first = step(points[0]!, points[1] ?? points[0]!);
  const normalized = (value: number) => (value === 9 ? -1 : value);
  return (
    Math.abs(normalized(first)) === 1 &&
    points.slice(1).every((point, i) => normalized(step(points[i]!, point)) === normalized(first))
  );
}

/** "aaaaaaaaaaaa": one character repeated is as guessable as any listed password. */
function isOneCharacter(password: string): boolean {
  const characters = [...password];
  return characters.every((character) => character === characters[0]);
}
