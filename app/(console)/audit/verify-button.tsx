"use client";

import { useMutation } from "@tanstack/react-query";
import { verifyChainAction } from "./actions";

export function VerifyButton() {
  const verify = useMutation({
    mutationFn: async () => {
      const result = await verifyChainAction();
      if (!result.data) throw new Error(result.serverError?.message ?? "Verification failed to run.");
      return result.data;
    },
  });
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        onClick={() => verify.mutate()}
        disabled={verify.isPending}
        className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white disabled:opacity-60"
      >
        {verify.isPending ? "Verifying…" : "Verify chain"}
      </button>
      {verify.data?.ok && (
        <span role="status" className="text-green-800">
          Chain intact: {verify.data.count} events, head #{verify.data.head?.seq}.{" "}
          {verify.data.againstCheckpoint.message}
        </span>
      )}
      {verify.data && !verify.data.againstCheckpoint.ok && (
        <span role="alert" className="font-medium text-red-800">
          Against the latest checkpoint: {verify.data.againstCheckpoint.message}
        </span>
      )}
      {verify.data && !verify.data.ok && (
        <span role="alert" className="font-medium text-red-800">
          Broken at event #{verify.data.firstBreak?.seq}: {verify.data.firstBreak?.message}
        </span>
      )}
      {verify.error && <span role="alert">{verify.error.message}</span>}
    </div>
  );
}
