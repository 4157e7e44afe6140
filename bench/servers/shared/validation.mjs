// Hand-written payload checks that answer like the service's validators (Laravel's wording, one
// list of messages per field). The order of the checks follows the service's JSON Schema validator,
// so that the same bad payload gets the same 422 body: missing required fields, then unknown
// fields, then each declared field (type, length, pattern, format).

function codePointLength(text) {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

/**
 * rules: field → { required?, nullable?, minLength?, maxLength?, pattern?, format?, messages }.
 * Returns undefined when the body is valid, else field → messages.
 */
export function validateBody(body, rules) {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { body: ["The request body must be a JSON object."] };
  const errors = {};
  const add = (field, message) => {
    const list = (errors[field] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  for (const [field, rule] of Object.entries(rules))
    if (rule.required && body[field] === undefined) add(field, rule.messages.required);
  for (const field of Object.keys(body))
    if (!Object.hasOwn(rules, field)) add(field, `The ${field.replaceAll("_", " ")} field is prohibited.`);
  for (const [field, rule] of Object.entries(rules)) {
    if (!Object.hasOwn(body, field)) continue;
    const value = body[field];
    if (value === null) {
      if (!rule.nullable) add(field, rule.messages.null);
      continue;
    }
    if (typeof value !== "string") {
      add(field, rule.messages.type);
      continue;
    }
    const needsLength = rule.maxLength !== undefined || rule.minLength !== undefined;
    const length = needsLength ? codePointLength(value) : 0;
    if (rule.maxLength !== undefined && length > rule.maxLength) add(field, rule.messages.maxLength);
    if (rule.minLength !== undefined && length < rule.minLength) add(field, rule.messages.minLength);
    if (rule.pattern !== undefined && !rule.pattern.test(value)) add(field, rule.messages.pattern);
    if (rule.format !== undefined && !rule.format.test(value)) add(field, rule.messages.format);
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

const forbiddenKeys = new Set(["__proto__", "constructor", "prototype"]);

function containsForbiddenKey(value) {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).some((key) => forbiddenKeys.has(key) || containsForbiddenKey(value[key]))
  );
}

/**
 * The service refuses a body with a key that could reach a prototype, at any depth, before any
 * validation: the field-errors of that 422, or undefined.
 */
export function prototypeKeyErrors(body) {
  if (typeof body !== "object" || body === null) return undefined;
  const key = Object.keys(body).find((name) => forbiddenKeys.has(name) || containsForbiddenKey(body[name]));
  if (key === undefined) return undefined;
  return { [key]: [`The ${key.replaceAll("_", " ").trim()} field is prohibited.`] };
}
