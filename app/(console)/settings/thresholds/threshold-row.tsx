"use client";

import { useActionState, useState } from "react";
import { ActionAlert, FieldError, fieldError, type ActionState } from "@/components/action-feedback";
import { formatAmount, minorDigits, parseMajorAmount } from "@/lib/format";
import { saveThresholdAction } from "./actions";

type Props = {
  tenantId: string;
  currency: string;
  /** The saved amounts in major units as a person types them ("1000.00", "150000" for JPY). */
  threshold: string;
  dualThreshold: string;
  /** The saved auto-resolve limit; empty: the reconciler never confirms in this currency. */
  autoResolveBelow: string;
  changed: string;
};

const input = "w-32 rounded border border-slate-300 px-2 py-1";

/** The amount a typed field means, in the currency's own format ("$1,000.00"), or what is wrong with it. */
function shown(text: string, currency: string, empty: string): string {
  if (text.trim() === "") return empty;
  const parsed = parseMajorAmount(text, currency);
  return parsed.ok ? formatAmount(parsed.minor, currency) : "not an amount";
}

function AmountCell(props: {
  formId: string;
  name: "threshold" | "dualThreshold" | "autoResolveBelow";
  label: string;
  currency: string;
  value: string;
  onChange: (v: string) => void;
  state: ActionState;
  empty: string;
  prefix?: string;
  required?: boolean;
}) {
  const { formId, name, label, currency, value, state, empty } = props;
  const error = fieldError(state, name);
  const id = `${formId}-${name}`;
  return (
    <td className="p-2">
      <input
        form={formId}
        name={name}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-shown ${id}-error`}
        value={value}
        onChange={(e) => props.onChange(e.target.value)}
        inputMode={minorDigits(currency) === 0 ? "numeric" : "decimal"}
        autoComplete="off"
        required={props.required}
        placeholder={props.required ? undefined : empty}
        className={input}
      />
      <p id={`${id}-shown`} className="mt-0.5 text-xs text-slate-600">
        {value.trim() && props.prefix ? `${props.prefix} ` : ""}
        {shown(value, currency, empty)}
      </p>
      <FieldError id={`${id}-error`} message={error} />
    </td>
  );
}

/**
 * One tenant and currency, in major units. The row's inputs belong to a form in its last
 * cell (a form may not wrap a table row), so it posts with or without JavaScript.
 */
export function ThresholdRow(props: Props) {
  const { tenantId, currency, changed } = props;
  const [state, formAction, pending] = useActionState(saveThresholdAction, {});
  const [single, setSingle] = useState(props.threshold);
  const [dual, setDual] = useState(props.dualThreshold);
  const [autoLimit, setAutoLimit] = useState(props.autoResolveBelow);
  const [reason, setReason] = useState("");
  const [seen, setSeen] = useState(state);
  if (seen !== state) {
    setSeen(state);
    if (state.data) setReason("");
  }
  const label = `${tenantId} ${currency}`;
  const formId = `threshold-${tenantId}-${currency}`;
  const cell = { formId, currency, state };
  return (
    <tr className="border-b border-slate-100 align-top">
      <td className="p-2">{tenantId}</td>
      <td className="p-2">{currency}</td>
      <AmountCell
        {...cell}
        name="threshold"
        label={`One approver from, ${label}`}
        value={single}
        onChange={setSingle}
        empty="required"
        required
      />
      <AmountCell
        {...cell}
        name="dualThreshold"
        label={`Two approvers from, ${label}`}
        value={dual}
        onChange={setDual}
        empty="no second approver"
      />
      <AmountCell
        {...cell}
        name="autoResolveBelow"
        label={`Reconciler may confirm below, ${label}`}
        value={autoLimit}
        onChange={setAutoLimit}
        empty="never"
        prefix="below"
      />
      <td className="p-2 text-xs text-slate-600">{changed}</td>
      <td className="p-2">
        <form id={formId} action={formAction} className="flex flex-wrap items-start gap-2">
          <input type="hidden" name="tenantId" value={tenantId} />
          <input type="hidden" name="currency" value={currency} />
          <div>
            <input
              name="reason"
              aria-label={`Reason for ${label}`}
              aria-invalid={fieldError(state, "reason") ? true : undefined}
              aria-describedby={`${formId}-reason-error`}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              required
              minLength={5}
              maxLength={2000}
              placeholder="Reason (audited)"
              className="w-44 rounded border border-slate-300 px-2 py-1"
            />
            <FieldError id={`${formId}-reason-error`} message={fieldError(state, "reason")} />
          </div>
          <button type="submit" disabled={pending} className="rounded border border-slate-300 px-2 py-1">
            Save {label}
          </button>
          {state.data && !pending && (
            <span role="status" className="py-1 text-green-800">
              Saved
            </span>
          )}
        </form>
        <ActionAlert state={state} />
      </td>
    </tr>
  );
}
