export function DemoBanner() {
  return (
    <div
      role="note"
      aria-label="Demo"
      className="bg-amber-400 px-4 py-1 text-center text-sm font-medium text-amber-950"
    >
      Demo — running on the embedded database. Data here is synthetic; set DATABASE_URL for a real PostgreSQL.
    </div>
  );
}
