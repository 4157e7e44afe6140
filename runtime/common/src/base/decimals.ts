// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/**
 * The limits of a `decimal(precision, scale)` column, applied to the value a client sent. A JSON
 * number is judged by the shortest text that reads back as the same number (`12.345` has three
 * decimals, `1e309` is not finite), so a number and the same value written as a string always get
 * the same answer, and nothing is rounded or stored as "Infinity" behind the client's back.
 */
export interface DecimalRule {
  precision: number;
  scale: number;
  minimum?: number;
  maximum?: number;
}

/** Which rule a value breaks: the keys of the resource's message table. */
export type DecimalProblem =
  "numeric" | "decimalIntegerDigits" | "decimalPlaces" | "minimum" | "maximum";

const decimalText = /^-?(\d+)(?:\.(\d+))?$/;

/** A finite number as plain decimal text, without exponent: 1e-7 → "0.0000001", 1e21 → "1000000000000000000000". */
export function plainDecimal(value: number): string {
  const text = String(value);
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponent) return text;
  const [, sign, lead, rest = "", power] = exponent;
  const digits = `${lead}${rest}`;
  const point = 1 + Number(power);
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

export function decimalProblem(
  value: string | number,
  rule: DecimalRule,
): DecimalProblem | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return "decimalIntegerDigits";
  const text = typeof value === "number" ? plainDecimal(value) : value;
  const match = decimalText.exec(text);
  if (!match) return "numeric";
  const integerDigits = match[1]!.replace(/^0+(?=\d)/, "").length;
  const fraction = match[2] ?? "";
  if (integerDigits > rule.precision - rule.scale && match[1]!.replace(/^0+/, "") !== "")
    return "decimalIntegerDigits";
  if (fraction.length > rule.scale) return "decimalPlaces";
  const number = Number(text);
  if (rule.minimum !== undefined && number < rule.minimum) return "minimum";
  if (rule.maximum !== undefined && number > rule.maximum) return "maximum";
  return undefined;
}
