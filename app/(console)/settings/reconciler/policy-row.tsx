"use client";

import { useActionState, useState } from "react";
import { ActionAlert, FieldError, fieldError } from "@/components/action-feedback";
import { saveReconcilePolicyAction } from "./actions";
import { MAX_REDISPATCHES, MODE_LABELS, RECONCILE_MODES, type ReconcileModeId } from "./schemas";

type Props = {
  tenantId: string;
  providerId: string;
  providerName: string;
  mode: ReconcileModeId;
  redispatch: boolean;
  maxRedispatches: number;
  active: number;
  escalated: number;
  changed: string;
};

const input = "rounded border border-slate-300 px-2 py-1";

/**
 * One tenant at one provider. The row's inputs belong to a form in its last cell (a form
 * may not wrap a table row), so it posts with or without JavaScript.
 */
export function PolicyRow(props: Props) {
  const { tenantId, providerId } = props;
  const [state, formAction, pending] = useActionState(saveReconcilePolicyAction, {});
  const [mode, setMode] = useState(props.mode);
  const [redispatch, setRedispatch] = useState(props.redispatch);
  const [max, setMax] = useState(String(props.maxRedispatches));
  const [reason, setReason] = useState("");
  // A saved change asks for a new reason next time (React's "state from the previous render").
  const [seen, setSeen] = useState(state);
  if (seen !== state) {
    setSeen(state);
    if (state.data) setReason("");
  }
  const pair = `${tenantId} at ${providerId}`;
  const formId = `reconcile-${tenantId}-${providerId}`;
  const errorId = (field: string) => `${formId}-${field}-error`;
  return (
    <tr className="border-b border-slate-100 align-top">
      <td className="p-2">{tenantId}</td>
      <td className="p-2">
        {providerId}
        <div className="text-xs text-slate-600">{props.providerName}</div>
      </td>
      <td className="p-2">
        <select
          form={formId}
          name="mode"
          aria-label={`Mode for ${pair}`}
          value={mode}
          onChange={(e) => setMode(e.target.value as ReconcileModeId)}
          className={input}
        >
          {RECONCILE_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </td>
      <td className="p-2">
        <input
          form={formId}
          type="checkbox"
          name="redispatch"
          value="true"
          aria-label={`May send absent intents again with their original key, for ${pair}`}
          checked={redispatch}
          onChange={(e) => setRedispatch(e.target.checked)}
          className="h-4 w-4"
        />
      </td>
      <td className="p-2">
        <input
          form={formId}
          type="number"
          name="maxRedispatches"
          aria-label={`Max redispatches for ${pair}`}
          aria-invalid={fieldError(state, "maxRedispatches") ? true : undefined}
          aria-describedby={errorId("maxRedispatches")}
          value={max}
          onChange={(e) => setMax(e.target.value)}
          min={0}
          max={MAX_REDISPATCHES}
          step={1}
          required
          className={`w-16 ${input}`}
        />
        <FieldError id={errorId("maxRedispatches")} message={fieldError(state, "maxRedispatches")} />
      </td>
      <td className="p-2 tabular-nums">
        {props.active} working on
        <div className="text-xs text-slate-600">{props.escalated} escalated</div>
      </td>
      <td className="p-2 text-xs text-slate-600">{props.changed}</td>
      <td className="p-2">
        <form id={formId} action={formAction} className="flex flex-wrap items-start gap-2">
          <input type="hidden" name="tenantId" value={tenantId} />
          <input type="hidden" name="providerId" value={providerId} />
          <div>
            <input
              name="reason"
              aria-label={`Reason for ${pair}`}
              aria-invalid={fieldError(state, "reason") ? true : undefined}
              aria-describedby={errorId("reason")}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              required
              minLength={5}
              placeholder="Reason (audited)"
              className={`w-44 ${input}`}
            />
            <FieldError id={errorId("reason")} message={fieldError(state, "reason")} />
          </div>
          <button type="submit" disabled={pending} className="rounded border border-slate-300 px-2 py-1">
            Save {pair}
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
