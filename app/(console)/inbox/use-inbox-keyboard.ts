"use client";

import { useRouter } from "next/navigation";
import { useEffect, type RefObject } from "react";
import { intentPath } from "@/lib/format";
import type { InboxRowJson } from "./types";

function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** Keyboard triage: j/k (or arrows) move, Enter opens, c claims, x selects, / searches. */
export function useInboxKeyboard({
  rows,
  activeIndex,
  move,
  canAct,
  claim,
  searchRef,
  toggle,
}: {
  rows: InboxRowJson[];
  activeIndex: number;
  move: (delta: number) => void;
  canAct: boolean;
  claim: (row: InboxRowJson) => Promise<void>;
  searchRef: RefObject<HTMLInputElement | null>;
  toggle: (row: InboxRowJson) => void;
}) {
  const router = useRouter();
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.key === "/" && !typing(event.target)) {
        event.preventDefault();
        searchRef.current?.focus();
        return;
      }
      if (typing(event.target)) return;
      const row = rows[activeIndex];
      if (event.key === "j" || event.key === "ArrowDown") {
        event.preventDefault();
        move(1);
      } else if (event.key === "k" || event.key === "ArrowUp") {
        event.preventDefault();
        move(-1);
      } else if ((event.key === "Enter" || event.key === "o") && row) {
        event.preventDefault();
        router.push(intentPath(row));
      } else if (event.key === "c" && row && canAct) {
        event.preventDefault();
        void claim(row);
      } else if (event.key === "x" && row && canAct) {
        event.preventDefault();
        toggle(row);
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [rows, activeIndex, move, router, canAct, claim, searchRef, toggle]);
}
