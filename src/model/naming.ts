/**
 * Names in every case from one PascalCase class name. Words split at case changes; a run of capitals
 * is one word (an acronym): `HTTPLog` → HTTP, Log.
 */
export function splitWords(name: string): string[] {
  return name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? [];
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

export const toPascal = (name: string) => splitWords(name).map(capitalize).join("");
export const toCamel = (name: string) => {
  const pascal = toPascal(name);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
};
export const toSnake = (name: string) => splitWords(name).map((word) => word.toLowerCase()).join("_");
export const toKebab = (name: string) => splitWords(name).map((word) => word.toLowerCase()).join("-");

const irregularPlurals: Record<string, string> = {
  person: "people",
  child: "children",
  man: "men",
  woman: "women",
  datum: "data",
  index: "indices",
  analysis: "analyses",
  diagnosis: "diagnoses",
};
const uncountable = new Set(["series", "species", "news", "equipment", "information", "staff"]);

function pluralizeWord(word: string): string {
  const lower = word.toLowerCase();
  const irregular = irregularPlurals[lower];
  const keepCase = (plural: string) => (word[0] === word[0]?.toUpperCase() ? capitalize(plural) : plural);
  if (uncountable.has(lower)) return word;
  if (irregular) return keepCase(irregular);
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|sh|ch|x|z)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

/** Plural of a PascalCase name: only the last word changes (`MedicalRecord` → `MedicalRecords`). */
export function pluralize(name: string): string {
  const words = splitWords(name);
  const last = words.pop();
  if (last === undefined) return name;
  return [...words, pluralizeWord(last)].join("");
}

export const defaultCollection = (name: string) => toKebab(pluralize(name));

/**
 * The public-id prefix (docs/api-contract.md §2), the rule of the Laravel generator users migrate from:
 * one word → its first three letters; several → the initials, filled with the first word's next
 * letters when fewer than three, cut to three when more. Undefined when a one-word name is too short.
 */
export function derivePrefix(name: string): string | undefined {
  const words = splitWords(name).filter((word) => /^[A-Za-z]/.test(word));
  const first = words[0];
  if (first === undefined) return undefined;
  if (words.length === 1) return first.length >= 3 ? first.slice(0, 3).toUpperCase() : undefined;
  const initials = words.map((word) => word[0]!).join("");
  if (initials.length >= 3) return initials.slice(0, 3).toUpperCase();
  const prefix = `${initials}${first.slice(1, 1 + 3 - initials.length)}`;
  return prefix.length === 3 ? prefix.toUpperCase() : undefined;
}

// Words whose first letter is a vowel but whose first sound is not (and the reverse): "a user", "an hour".
const consonantSounds = /^(uni|use|usu|uti|ure|eu|one|once)/;
const vowelSounds = /^(hour|honest|honor|heir)/;

/** "a patient", "an appointment", "a user": the label with its indefinite article. */
export function withArticle(label: string): string {
  const lower = label.toLowerCase();
  const vowel = vowelSounds.test(lower) || (/^[aeiou]/.test(lower) && !consonantSounds.test(lower));
  return `${vowel ? "an" : "a"} ${label}`;
}

/** The table a resource's model maps to: the snake_case plural of its name (`medical_records`). */
export function resourceTable(spec: { name: string }): string {
  return toSnake(pluralize(spec.name));
}
