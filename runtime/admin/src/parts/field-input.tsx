// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import type { AdminApi } from "../api.js";
import type { AdminField, AdminInput, AdminView } from "../manifest.js";
import { sizeText } from "../values.js";
import { described, Labelled } from "./inputs.js";
import { Picker } from "./picker.js";

/** What one input of a form holds and reports. */
export interface InputProps {
  api: AdminApi;
  view: AdminView;
  field: AdminField;
  /** The action's bounds; undefined: the role may not write it (shown read-only). */
  input: AdminInput | undefined;
  text: string;
  /** A related record's or a file's name, as shown. */
  shown: string;
  errors?: readonly string[] | undefined;
  onText: (text: string, shown?: string) => void;
  /** A file chosen, null to remove the one there is, undefined to leave it. */
  onFile: (file: File | null | undefined) => void;
}

const hints: Partial<Record<AdminField["type"], string>> = {
  datetime: "In UTC.",
  json: 'JSON, e.g. {"key": "value"}.',
  decimal: "A number, e.g. 12.50.",
};

/** A field's input as its type and rules say, under its label, its errors beneath it. */
export function FieldInput(props: InputProps) {
  const { field, input } = props;
  const hint = field.file ? fileHint(field.file) : hints[field.type];
  return (
    <Labelled
      name={field.key}
      label={field.label}
      required={input?.required}
      hint={input ? hint : "Read-only for your role."}
      errors={props.errors}
    >
      {input ? (
        <Editor {...props} input={input} hint={hint} />
      ) : (
        <input
          {...described(field.key, undefined, "x")}
          type="text"
          readOnly
          value={props.shown || props.text}
        />
      )}
    </Labelled>
  );
}

function fileHint(file: NonNullable<AdminField["file"]>): string {
  return `At most ${sizeText(file.maxKb * 1024)}${file.accept ? `; ${file.accept}` : ""}.`;
}

type EditorProps = InputProps & { input: AdminInput; hint: string | undefined };

/** What every input carries: its label's id, its errors and hint, whether it is required. */
function commonOf(props: EditorProps) {
  const { input } = props;
  return {
    ...described(props.field.key, props.errors, props.hint),
    required: input.required ?? false,
    "aria-required": input.required ? ("true" as const) : undefined,
  };
}

function Editor(props: EditorProps) {
  const { field, input, text, onText } = props;
  const common = commonOf(props);
  const onInput = (event: Event) => onText((event.currentTarget as HTMLInputElement).value);
  switch (field.type) {
    case "belongsTo":
      return <RelationEditor {...props} />;
    case "enum":
    case "boolean":
      return <ChoiceEditor {...props} />;
    case "file":
      return <FileEditor {...props} />;
    case "text":
    case "json":
      return (
        <textarea
          {...common}
          rows={field.type === "json" ? 6 : 4}
          maxLength={input.maxLength}
          value={text}
          onInput={onInput}
        />
      );
    default:
      return (
        <input
          {...common}
          type={inputType(field) as "text"}
          {...bounds(field, input)}
          value={text}
          onInput={onInput}
        />
      );
  }
}

/** A picker over the related list where the role lists it; the related public id typed otherwise. */
function RelationEditor(props: EditorProps) {
  const { field, input, text } = props;
  const target = props.view.resources.find(
    (resource) => resource.collection === field.target && resource.actions.index,
  );
  if (!target)
    return (
      <input
        {...commonOf(props)}
        type="text"
        value={text}
        onInput={(event) => props.onText((event.currentTarget as HTMLInputElement).value)}
      />
    );
  return (
    <Picker
      api={props.api}
      target={target}
      name={field.key}
      value={text}
      shown={props.shown}
      required={input.required ?? false}
      nullable={field.nullable ?? false}
      errors={props.errors}
      onChange={(hash, title) => props.onText(hash, title)}
    />
  );
}

/** An enum's values, or yes and no; empty: none (or the default). */
function ChoiceEditor(props: EditorProps) {
  const { field } = props;
  const values = field.type === "boolean" ? ["true", "false"] : (field.values ?? []);
  const label = (value: string) =>
    field.type === "boolean" ? (value === "true" ? "Yes" : "No") : value;
  return (
    <select
      {...commonOf(props)}
      value={props.text}
      onChange={(event) => props.onText((event.currentTarget as HTMLSelectElement).value)}
    >
      <option value="">{field.nullable ? "None" : "—"}</option>
      {values.map((value) => (
        <option key={value} value={value}>
          {label(value)}
        </option>
      ))}
    </select>
  );
}

/** The file there is, a file to send instead, and (nullable) removing it. */
function FileEditor(props: EditorProps) {
  const { field } = props;
  const checked = (event: Event) => (event.currentTarget as HTMLInputElement).checked;
  return (
    <>
      {props.shown && <p class="current-file">Now: {props.shown}</p>}
      <input
        {...commonOf(props)}
        required={false}
        type="file"
        accept={field.file?.accept || undefined}
        onChange={(event) => props.onFile((event.currentTarget as HTMLInputElement).files?.[0])}
      />
      {props.shown && field.nullable && (
        <label class="inline">
          <input
            type="checkbox"
            onChange={(event) => props.onFile(checked(event) ? null : undefined)}
          />{" "}
          Remove the file
        </label>
      )}
    </>
  );
}

function inputType(field: AdminField): string {
  switch (field.type) {
    case "email":
    case "password":
    case "date":
      return field.type;
    case "datetime":
      return "datetime-local";
    case "integer":
      return "number";
    default:
      return "text";
  }
}

function bounds(field: AdminField, input: AdminInput) {
  return {
    ...(input.maxLength !== undefined ? { maxLength: input.maxLength } : {}),
    ...(field.type === "integer"
      ? { step: input.step ?? "1", min: input.min, max: input.max }
      : {}),
    ...(field.type === "decimal" ? { inputMode: "decimal" as const } : {}),
    ...(field.type === "password" ? { autocomplete: "new-password" } : {}),
  };
}
