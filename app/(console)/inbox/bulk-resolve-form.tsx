"use client";

import { useState } from "react";

/**
 * One reason for several resolutions of one kind (each still its own audited
 * resolution). Shown only while some selected rows qualify for it.
 */
export function BulkResolveForm({
  label,
  action,
  tone,
  onSubmit,
}: {
  /** "Accept 2 found matching", "Mark 3 absent rejected". */
  action: string;
  /** What the reason is for: "accepting all 2 exact matches". */
  label: string;
  tone: string;
  onSubmit: (reason: string) => Promise<void>;
}) {
  const [reason, setReason] = useState("");
  const [pending, setPending] = useState(false);
  return (
    <form
      aria-label={action}
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        setPending(true);
        void onSubmit(reason).finally(() => setPending(false));
      }}
    >
      <label className="flex flex-col">
        <span className="text-xs text-slate-600">Reason for {label}</span>
        <input
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          required
          minLength={5}
          maxLength={2000}
          className="w-96 max-w-full rounded border border-slate-300 px-2 py-1"
        />
      </label>
      <button
        type="submit"
        disabled={pending || reason.trim().length < 5}
        className={`rounded px-3 py-1 font-medium text-white disabled:opacity-60 ${tone}`}
      >
        {pending ? "Working…" : action}
      </button>
    </form>
  );
}
