"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useWaiting, type WaitingSummary } from "./use-waiting";

const NOTIFY_KEY = "reckon.approvals.notify";

const noSubscription = () => () => undefined;
const changed = new Set<() => void>();

function subscribe(onChange: () => void) {
  changed.add(onChange);
  window.addEventListener("storage", onChange);
  return () => {
    changed.delete(onChange);
    window.removeEventListener("storage", onChange);
  };
}

const notifying = () =>
  "Notification" in window &&
  Notification.permission === "granted" &&
  localStorage.getItem(NOTIFY_KEY) === "1";

/** Browser notifications: only once the person asked for them and granted permission. */
function useNotifySetting() {
  const supported = useSyncExternalStore(
    noSubscription,
    () => "Notification" in window,
    () => false,
  );
  const on = useSyncExternalStore(subscribe, notifying, () => false);
  const enable = async () => {
    const permission = await Notification.requestPermission();
    if (permission === "granted") localStorage.setItem(NOTIFY_KEY, "1");
    for (const c of changed) c();
    return permission;
  };
  const disable = () => {
    localStorage.removeItem(NOTIFY_KEY);
    for (const c of changed) c();
  };
  return { supported, on, enable, disable };
}

/**
 * Keeps the queue live while it is open: the count's poll says when the queue changed
 * (a request arrived, left or got a vote), the page is then re-rendered on the server
 * (what you typed in a decision form stays), and a new request is announced politely —
 * and as a browser notification if you asked for them.
 */
export function QueueWatch({ initial }: { initial: WaitingSummary }) {
  const router = useRouter();
  const { data, isError } = useWaiting(initial);
  const seen = useRef(new Set(initial.requests.map((r) => r.id)));
  const rendered = useRef(initial.signature);
  const [message, setMessage] = useState("");
  const [denied, setDenied] = useState(false);
  const notify = useNotifySetting();
  const notifyOn = notify.on;

  // What the server just rendered is what the page shows: no refresh needed for it.
  useEffect(() => {
    rendered.current = initial.signature;
  }, [initial]);

  useEffect(() => {
    const arrived = data.requests.filter((r) => !seen.current.has(r.id));
    for (const r of arrived) seen.current.add(r.id);
    if (arrived.length > 0) {
      const text = `A new request waits: ${arrived.map((r) => r.label).join("; ")}`;
      setMessage(text);
      if (notifyOn && Notification.permission === "granted")
        new Notification("Reckon approvals", { body: text, tag: `reckon-approvals-${arrived[0]!.id}` });
    }
    if (data.signature !== rendered.current) {
      rendered.current = data.signature;
      router.refresh();
    }
  }, [data, notifyOn, router]);

  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <p
        role="status"
        aria-live="polite"
        className={message ? "rounded bg-amber-50 px-2 py-1 text-amber-950" : ""}
      >
        {message}
      </p>
      {isError && <p className="text-red-800">Live refresh failed; it will try again.</p>}
      {notify.supported &&
        (notify.on ? (
          <button type="button" onClick={notify.disable} className="text-blue-800 underline">
            Stop browser notifications
          </button>
        ) : (
          <button
            type="button"
            onClick={() => void notify.enable().then((p) => setDenied(p === "denied"))}
            className="rounded border border-slate-300 px-2 py-0.5"
          >
            Notify me
          </button>
        ))}
      {denied && <p>This browser refused notifications; the count in the navigation still updates.</p>}
    </div>
  );
}
