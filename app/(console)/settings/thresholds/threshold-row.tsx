"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { postJson } from "@/components/post-json";

type Props = {
  tenantId: string;
  currency: string;
  thresholdMinor: string;
  dualThresholdMinor: string;
  changed: string;
};

export function ThresholdRow({ tenantId, currency, thresholdMinor, dualThresholdMinor, changed }: Props) {
  const router = useRouter();
  const [single, setSingle] = useState(thresholdMinor);
  const [dual, setDual] = useState(dualThresholdMinor);
  const save = useMutation({
    mutationFn: () =>
      postJson("/api/thresholds", {
        tenantId,
        currency,
        thresholdMinor: single,
        dualThresholdMinor: dual === "" ? null : dual,
      }),
    onSuccess: () => router.refresh(),
  });
  const label = `${tenantId} ${currency}`;
  return (
    <tr className="border-b border-slate-100">
      <td className="p-2">{tenantId}</td>
      <td className="p-2">{currency}</td>
      <td className="p-2">
        <input
          aria-label={`One approver from, ${label}`}
          value={single}
          onChange={(e) => setSingle(e.target.value)}
          inputMode="numeric"
          className="w-32 rounded border border-slate-300 px-2 py-1"
        />
      </td>
      <td className="p-2">
        <input
          aria-label={`Two approvers from, ${label}`}
          value={dual}
          onChange={(e) => setDual(e.target.value)}
          inputMode="numeric"
          className="w-32 rounded border border-slate-300 px-2 py-1"
        />
      </td>
      <td className="p-2 text-xs text-slate-500">{changed}</td>
      <td className="p-2">
        <button
          type="button"
          onClick={() => save.mutate()}
          disabled={save.isPending}
          className="rounded border border-slate-300 px-2 py-1"
        >
          Save {label}
        </button>
        {save.error && (
          <span role="alert" className="ml-2 text-red-800">
            {save.error.message}
          </span>
        )}
        {save.isSuccess && (
          <span role="status" className="ml-2 text-green-800">
            Saved
          </span>
        )}
      </td>
    </tr>
  );
}
