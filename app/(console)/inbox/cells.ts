/**
 * The inbox table's cells: one dense line each from 640 px up; below that each row is a
 * card and each cell a line of it, named by its column (data-label).
 */
export const CELL =
  "flex justify-between gap-2 px-2 py-0.5 whitespace-nowrap sm:table-cell sm:py-1.5 before:text-xs before:text-slate-600 before:content-[attr(data-label)] sm:before:content-none";

export const ROW =
  "mb-2 block rounded border border-slate-200 py-1 sm:mb-0 sm:table-row sm:rounded-none sm:border-0 sm:border-b sm:border-slate-100 sm:py-0";

export const HEAD = "sticky top-0 z-10 bg-white p-2 shadow-[inset_0_-1px_0_theme(colors.slate.200)]";
