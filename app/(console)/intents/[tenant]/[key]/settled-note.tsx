import { Time } from "@/components/time";

/** What the page says when an intent has no open question (plain data: server or client may render it). */
export type Settled = {
  status: string;
  at: Date | null;
  receipt: string | null;
  errorClass: string | null;
  compensationKey: string | null;
  leaseExpiresAt: Date | null;
};

/** "Nothing to resolve: confirmed on … with receipt ch_…" — only unknown intents have an open question. */
export function SettledNote({ settled }: { settled: Settled }) {
  const on = settled.at ? (
    <>
      {" "}
      on <Time value={settled.at} />
    </>
  ) : null;
  switch (settled.status) {
    case "confirmed":
      return (
        <>
          Nothing to resolve: confirmed{on}
          {settled.receipt ? (
            <>
              {" "}
              with receipt <span className="font-mono">{settled.receipt}</span>
            </>
          ) : null}
          .
        </>
      );
    case "rejected":
      return (
        <>
          Nothing to resolve: rejected{on}
          {settled.errorClass ? ` (${settled.errorClass})` : ""}.
        </>
      );
    case "compensated":
      return (
        <>
          Nothing to resolve: compensated{on}
          {settled.compensationKey ? (
            <>
              {" "}
              by <span className="font-mono break-all">{settled.compensationKey}</span>
            </>
          ) : null}
          .
        </>
      );
    case "compensating":
      return (
        <>
          Nothing to resolve here: its compensation is under way; it becomes compensated once the refund is
          confirmed.
        </>
      );
    case "dispatched":
      return (
        <>
          Nothing to resolve yet: a worker is sending it
          {settled.leaseExpiresAt ? (
            <>
              {" "}
              (its lease runs until <Time value={settled.leaseExpiresAt} precision="second" />)
            </>
          ) : null}
          .
        </>
      );
    default:
      return <>Nothing to resolve: it is {settled.status} and has not been sent yet.</>;
  }
}
