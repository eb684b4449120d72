"use client";

import { useActionState, useState } from "react";
import { ReasonField } from "@/components/reason-field";
import { ActionAlert, FieldError, fieldError, type ActionState } from "@/components/action-feedback";
import { PROFILE_BOUNDS } from "@/lib/admin/bounds";
import { formatDuration } from "@/lib/format";
import { saveProviderProfileAction } from "./actions";

export type EditableProfile = {
  id: string;
  name: string;
  baseUrl: string;
  responseWindowSeconds: string;
  keyRetentionSeconds: string;
  visibilityDelaySeconds: string;
  rateLimitPerSecond: string;
  supportsIdempotency: boolean;
  updatedAt: string;
};

type Field = "baseUrl" | keyof typeof PROFILE_BOUNDS;

/** What a typed number of seconds reads as, beside its input. */
function readable(field: Field, value: string): string {
  if (!/^\d{1,9}$/.test(value.trim())) return "";
  const n = Number(value);
  return field === "rateLimitPerSecond" ? `${n} requests/s` : formatDuration(n);
}

function NumberField(props: {
  field: keyof typeof PROFILE_BOUNDS;
  providerId: string;
  value: string;
  onChange: (v: string) => void;
  state: ActionState;
  unit: string;
}) {
  const { field, providerId, value, onChange, state, unit } = props;
  const { label, min, max } = PROFILE_BOUNDS[field];
  const id = `${providerId}-${field}`;
  const error = fieldError(state, field);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label} ({unit})
      </label>
      <div className="flex items-center gap-2">
        <input
          id={id}
          name={field}
          type="number"
          min={min}
          max={max}
          step={1}
          required
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-shown ${id}-error`}
          className="w-32 rounded border border-slate-300 px-2 py-1"
        />
        <span id={`${id}-shown`} className="text-xs text-slate-600">
          {readable(field, value)}
        </span>
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** An admin edits a provider profile's operating settings, with a reason (audited with before and after). */
export function ProfileForm({ profile }: { profile: EditableProfile }) {
  const [state, formAction, pending] = useActionState(saveProviderProfileAction, {});
  const [values, setValues] = useState(profile);
  const [reason, setReason] = useState("");
  const [seen, setSeen] = useState(state);
  if (seen !== state) {
    setSeen(state);
    if (state.data) setReason("");
  }
  const set = (field: keyof EditableProfile) => (v: string) => setValues((p) => ({ ...p, [field]: v }));
  const id = (field: string) => `${profile.id}-${field}`;
  const numberField = (field: keyof typeof PROFILE_BOUNDS, unit: string) => (
    <NumberField
      field={field}
      providerId={profile.id}
      value={values[field]}
      onChange={set(field)}
      state={state}
      unit={unit}
    />
  );
  return (
    <form
      action={formAction}
      aria-label={`Settings of ${profile.name}`}
      className="mt-4 space-y-3 border-t border-slate-200 pt-3"
    >
      <h3 className="font-medium">Change settings</h3>
      <input type="hidden" name="providerId" value={profile.id} />
      {/* The version the admin edits: a change saved meanwhile by someone else is refused, not overwritten. */}
      <input type="hidden" name="expectedUpdatedAt" value={profile.updatedAt} />
      <div>
        <label htmlFor={id("baseUrl")} className="block text-sm font-medium">
          Base URL
        </label>
        <input
          id={id("baseUrl")}
          name="baseUrl"
          type="url"
          maxLength={2048}
          placeholder="the deployment's default"
          value={values.baseUrl}
          onChange={(e) => set("baseUrl")(e.target.value)}
          aria-invalid={fieldError(state, "baseUrl") ? true : undefined}
          aria-describedby={`${id("baseUrl")}-hint ${id("baseUrl")}-error`}
          className="w-full rounded border border-slate-300 px-2 py-1"
        />
        <p id={`${id("baseUrl")}-hint`} className="text-xs text-slate-600">
          http or https; empty: the deployment&apos;s default provider address.
        </p>
        <FieldError id={`${id("baseUrl")}-error`} message={fieldError(state, "baseUrl")} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {numberField("responseWindowSeconds", "seconds")}
        {profile.supportsIdempotency && numberField("keyRetentionSeconds", "seconds")}
        {numberField("visibilityDelaySeconds", "seconds")}
        {numberField("rateLimitPerSecond", "requests per second")}
      </div>
      <ReasonField
        id={id("reason")}
        label="Reason for the change (audited)"
        value={reason}
        onChange={setReason}
        error={fieldError(state, "reason")}
        className="w-full"
      />
      <button
        type="submit"
        disabled={pending}
        className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white"
      >
        Save {profile.name}
      </button>
      {state.data && !pending && (
        <p role="status" className="text-sm text-green-800">
          {state.data.changed.length ? "Saved" : "No change: those are already the settings"}
        </p>
      )}
      <ActionAlert state={state} />
    </form>
  );
}
