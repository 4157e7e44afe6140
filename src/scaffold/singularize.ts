const irregular: Record<string, string> = {
  people: "person",
  children: "child",
  men: "man",
  women: "woman",
  data: "datum",
  indices: "index",
  statuses: "status",
  analyses: "analysis",
  diagnoses: "diagnosis",
};
const uncountable = new Set(["series", "species", "news", "equipment", "information", "staff"]);

/** English singular of a lowercase word, for the forms resource names take in practice. */
export function singularize(word: string): string {
  if (uncountable.has(word)) return word;
  if (irregular[word]) return irregular[word];
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (/ses$/.test(word)) return word.slice(0, -1);
  if (/[^s]s$/.test(word) && !/(us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}
