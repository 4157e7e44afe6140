/**
 * Laravel 11's English validation messages (lang/en/validation.php), the wording our users' clients
 * already parse. `:attribute` is the field name with underscores as spaces, as Laravel prints it.
 */
export const laravelMessages = {
  required: "The :attribute field is required.",
  prohibited: "The :attribute field is prohibited.",
  string: "The :attribute field must be a string.",
  integer: "The :attribute field must be an integer.",
  numeric: "The :attribute field must be a number.",
  boolean: "The :attribute field must be true or false.",
  date: "The :attribute field must be a valid date.",
  email: "The :attribute field must be a valid email address.",
  json: "The :attribute field must be a valid JSON value.",
  maxString: "The :attribute field must not be greater than :max characters.",
  maxNumeric: "The :attribute field must not be greater than :max.",
  minString: "The :attribute field must be at least :min characters.",
  minNumeric: "The :attribute field must be at least :min.",
  sizeString: "The :attribute field must be :size characters.",
  sizeNumeric: "The :attribute field must be :size.",
  digits: "The :attribute field must be :digits digits.",
  decimal: "The :attribute field must have :decimal decimal places.",
  // Not Laravel's (it has no such rule): what a decimal(precision, scale) column allows before the point.
  decimalIntegerDigits: "The :attribute field must have at most :digits digits before the decimal point.",
  in: "The selected :attribute is invalid.",
  regex: "The :attribute field format is invalid.",
  unique: "The :attribute has already been taken.",
  exists: "The selected :attribute is invalid.",
  confirmed: "The :attribute field confirmation does not match.",
  uuid: "The :attribute field must be a valid UUID.",
  url: "The :attribute field must be a valid URL.",
  file: "The :attribute field must be a file.",
  array: "The :attribute field must be an array.",
  maxArray: "The :attribute field must not have more than :max items.",
  distinct: "The :attribute field has a duplicate value.",
} as const;

export type LaravelMessageKey = keyof typeof laravelMessages;

export function attributeLabel(field: string): string {
  return field.replaceAll("_", " ");
}

export function laravelMessage(
  key: LaravelMessageKey,
  field: string,
  params: Record<string, string | number> = {},
): string {
  let text: string = laravelMessages[key].replace(":attribute", attributeLabel(field));
  for (const [name, value] of Object.entries(params)) text = text.replace(`:${name}`, String(value));
  return text;
}
