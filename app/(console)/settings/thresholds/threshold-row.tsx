"use client";

import { useActionState, useState } from "react";
import { ActionAlert, FieldError, fieldError } from "@/components/action-feedback";
import { formatAmount } from "@/lib/format";
import { saveThresholdAction } from "./actions";

type Props = {
  tenantId: string;
  currency: string;
  thresholdMinor: string;
  dualThresholdMinor: string;
  /** The saved auto-resolve limit; empty: the reconciler never confirms in this currency. */
  autoResolveBelowMinor: string;
  changed: string;
};

/**
 * One tenant and currency. The row's inputs belong to a form in its last cell (a form
 * may not wrap a table row), so it posts with or without JavaScript.
 */
export function ThresholdRow(props: Props) {
  const { tenantId, currency, thresholdMinor, dualThresholdMinor, autoResolveBelowMinor, changed } = props;
  const [state, formAction, pending] = useActionState(saveThresholdAction, {});
  const [single, setSingle] = useState(thresholdMinor);
  const [dual, setDual] = useState(dualThresholdMinor);
  const [autoLimit, setAutoLimit] = useState(autoResolveBelowMinor);
  const autoError = fieldError(state, "autoResolveBelowMinor");
  const label = `${tenantId} ${currency}`;
  const formId = `threshold-${tenantId}-${currency}`;
  return (
    <tr className="border-b border-slate-100">
      <td className="p-2">{tenantId}</td>
      <td className="p-2">{currency}</td>
      <td className="p-2">
        <input
          form={formId}
          name="thresholdMinor"
          aria-label={`One approver from, ${label}`}
          value={single}
          onChange={(e) => setSingle(e.target.value)}
          inputMode="numeric"
          required
          className="w-32 rounded border border-slate-300 px-2 py-1"
        />
      </td>
      <td className="p-2">
        <input
          form={formId}
          name="dualThresholdMinor"
          aria-label={`Two approvers from, ${label}`}
          value={dual}
          onChange={(e) => setDual(e.target.value)}
          inputMode="numeric"
          className="w-32 rounded border border-slate-300 px-2 py-1"
        />
      </td>
      <td className="p-2">
        <input
          form={formId}
          name="autoResolveBelowMinor"
          aria-label={`Reconciler may confirm below, ${label}`}
          aria-invalid={autoError ? true : undefined}
          aria-describedby={`${formId}-auto-error`}
          value={autoLimit}
          onChange={(e) => setAutoLimit(e.target.value)}
          inputMode="numeric"
          placeholder="never"
          className="w-32 rounded border border-slate-300 px-2 py-1"
        />
        <p className="mt-0.5 text-xs text-slate-600">
          {autoResolveBelowMinor ? `below ${formatAmount(autoResolveBelowMinor, currency)}` : "never"}
        </p>
        <FieldError id={`${formId}-auto-error`} message={autoError} />
      </td>
      <td className="p-2 text-xs text-slate-600">{changed}</td>
      <td className="p-2">
        <form id={formId} action={formAction}>
          <input type="hidden" name="tenantId" value={tenantId} />
          <input type="hidden" name="currency" value={currency} />
          <button type="submit" disabled={pending} className="rounded border border-slate-300 px-2 py-1">
            Save {label}
          </button>
        </form>
        {state.data && !pending && (
          <span role="status" className="ml-2 text-green-800">
            Saved
          </span>
        )}
        <ActionAlert state={state} />
      </td>
    </tr>
  );
}
