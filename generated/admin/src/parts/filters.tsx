// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

import { useState } from "preact/hooks";
import type { FilterRow, ListState } from "../list-params.js";
import type { AdminField, AdminResource } from "../manifest.js";

const operatorLabels: Readonly<Record<string, string>> = {
  eq: "is",
  ne: "is not",
  gt: "after / more than",
  gte: "from / at least",
  lt: "before / less than",
  lte: "until / at most",
  between: "between (from,to)",
  in: "one of (a,b,…)",
  nin: "none of (a,b,…)",
  contains: "contains",
  starts_with: "starts with",
  ends_with: "ends with",
  null: "is empty",
};

interface FiltersProps {
  resource: AdminResource;
  state: ListState;
  onApply: (state: ListState) => void;
}

function SearchInput(props: { value: string; onInput: (value: string) => void }) {
  return (
    <div class="field search">
      <label for="list-search">Search</label>
      <input
        id="list-search"
        type="search"
        value={props.value}
        onInput={(event) => props.onInput((event.currentTarget as HTMLInputElement).value)}
      />
    </div>
  );
}

/** Search (where the resource has it) and a row per filter, each operator the field declares. */
export function Filters(props: FiltersProps) {
  const { resource, state } = props;
  const filterable = resource.fields.filter(
    (field) => field.operators && field.operators.length > 0,
  );
  const [rows, setRows] = useState<FilterRow[]>([...state.filters]);
  const [search, setSearch] = useState(state.search);
  if (filterable.length === 0 && !resource.search) return null;
  const first = filterable[0];
  const added = () =>
    first &&
    setRows([...rows, { field: first.key, op: firstOperator(filterable, first.key), value: "" }]);

  function apply(event: Event) {
    event.preventDefault();
    props.onApply({
      ...state,
      search,
      filters: rows,
      page: 1,
      cursor: state.cursor === undefined ? undefined : "",
    });
  }

  return (
    <form
      class="filters"
      onSubmit={apply}
      role="search"
      aria-label={`Search and filter ${resource.label.toLowerCase()}`}
    >
      {resource.search && <SearchInput value={search} onInput={setSearch} />}
      {rows.map((row, index) => (
        <FilterRowInputs
          key={index}
          fields={filterable}
          row={row}
          index={index}
          onChange={(changed) =>
            setRows(rows.map((current, at) => (at === index ? changed : current)))
          }
          onRemove={() => setRows(rows.filter((_, at) => at !== index))}
        />
      ))}
      <div class="filter-actions">
        {first && (
          <button type="button" onClick={added}>
            Add a filter
          </button>
        )}
        <button type="submit" class="primary">
          Apply
        </button>
      </div>
    </form>
  );
}

interface RowProps {
  fields: readonly AdminField[];
  row: FilterRow;
  index: number;
  onChange: (row: FilterRow) => void;
  onRemove: () => void;
}

/** One filter: its field, one of the field's operators, and the operand. */
function FilterRowInputs(props: RowProps) {
  const { fields, row, index } = props;
  const field = fields.find((candidate) => candidate.key === row.field) ?? fields[0]!;
  const chosen = (event: Event) => (event.currentTarget as HTMLSelectElement).value;
  return (
    <fieldset class="filter-row">
      <legend class="visually-hidden">Filter {index + 1}</legend>
      <label>
        <span class="visually-hidden">Field of filter {index + 1}</span>
        <select
          value={field.key}
          onChange={(event) =>
            props.onChange({
              field: chosen(event),
              op: firstOperator(fields, chosen(event)),
              value: "",
            })
          }
        >
          {fields.map((candidate) => (
            <option key={candidate.key} value={candidate.key}>
              {candidate.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span class="visually-hidden">Operator of filter {index + 1}</span>
        <select value={row.op} onChange={(event) => props.onChange({ ...row, op: chosen(event) })}>
          {(field.operators ?? []).map((op) => (
            <option key={op} value={op}>
              {operatorLabels[op] ?? op}
            </option>
          ))}
        </select>
      </label>
      <FilterValue
        field={field}
        row={row}
        index={index}
        onValue={(value) => props.onChange({ ...row, value })}
      />
      <button type="button" onClick={props.onRemove} aria-label={`Remove filter ${index + 1}`}>
        Remove
      </button>
    </fieldset>
  );
}

function firstOperator(fields: readonly AdminField[], key: string): string {
  return fields.find((field) => field.key === key)?.operators?.[0] ?? "eq";
}

/** The operand of one filter: a choice where the values are known, text otherwise. */
function FilterValue(props: {
  field: AdminField;
  row: FilterRow;
  index: number;
  onValue: (value: string) => void;
}) {
  const { field, row } = props;
  const label = <span class="visually-hidden">Value of filter {props.index + 1}</span>;
  const onChange = (event: Event) =>
    props.onValue((event.currentTarget as HTMLInputElement | HTMLSelectElement).value);
  const choices =
    row.op === "null" || field.type === "boolean"
      ? ["true", "false"]
      : field.values && (row.op === "eq" || row.op === "ne")
        ? field.values
        : undefined;
  if (choices)
    return (
      <label>
        {label}
        <select value={row.value} onChange={onChange}>
          <option value="">—</option>
          {choices.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </label>
    );
  const type =
    field.type === "date" && !["in", "nin", "between"].includes(row.op) ? "date" : "text";
  return (
    <label>
      {label}
      <input type={type as "text"} value={row.value} onInput={onChange} />
    </label>
  );
}
