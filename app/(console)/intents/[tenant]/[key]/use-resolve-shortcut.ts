"use client";

import { useEffect, type RefObject } from "react";

// The same rule as the inbox's keyboard triage: a letter typed into a field is text, not a shortcut.
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** `r` moves focus to the resolve form: its first resolution that can be chosen, else the section. */
export function useResolveShortcut(sectionRef: RefObject<HTMLElement | null>) {
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.metaKey || event.ctrlKey || event.altKey || event.key !== "r" || typing(event.target)) return;
      const section = sectionRef.current;
      if (!section) return;
      event.preventDefault();
      const target =
        section.querySelector<HTMLElement>("input[name=kind]:checked:not(:disabled)") ??
        section.querySelector<HTMLElement>("input[name=kind]:not(:disabled)") ??
        section;
      target.focus();
      target.scrollIntoView({ block: "nearest" });
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [sectionRef]);
}
