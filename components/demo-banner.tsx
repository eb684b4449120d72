export function DemoBanner() {
  return (
    // A landmark of its own, so it is not stray content outside the page's regions.
    <aside
      aria-label="Demo"
      className="bg-amber-400 px-4 py-1 text-center text-sm font-medium text-amber-950"
    >
      Demo — running on the embedded database. Data here is synthetic; set DATABASE_URL for a real PostgreSQL.
    </aside>
  );
}
