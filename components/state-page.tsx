import Link from "next/link";

type Props = {
  /** A short code above the heading: "404", "403", "Error". */
  code: string;
  title: string;
  children: React.ReactNode;
  /** Offer the inbox search (GET /inbox?q=…): only to people who may open the inbox. */
  search?: boolean;
  /** A same-origin path to go back to, as a plain link. */
  back?: string | null;
  /** Extra actions beside the links (error pages: "Try again"). */
  actions?: React.ReactNode;
};

/**
 * The body of the not-found, forbidden and error pages: what happened in words, a way to
 * find what was meant (the inbox search), and a way back — all plain links and a GET
 * form, so they work before and without JavaScript.
 */
export function StatePage({ code, title, children, search = false, back, actions }: Props) {
  return (
    <section aria-labelledby="state-title" className="mx-auto max-w-xl space-y-5 py-8">
      <div className="space-y-2">
        <p className="text-sm font-medium tracking-wide text-slate-600 uppercase">{code}</p>
        <h1 id="state-title" className="text-2xl font-semibold">
          {title}
        </h1>
        <div className="space-y-2 text-slate-700">{children}</div>
      </div>
      {search && (
        <form
          method="get"
          action="/inbox"
          role="search"
          aria-label="Search the inbox"
          className="flex flex-col gap-2 rounded border border-slate-200 bg-white p-3 sm:flex-row sm:items-end"
        >
          <label className="flex min-w-0 flex-1 flex-col text-sm">
            <span className="text-slate-600">Intent key, workflow id, customer or provider reference</span>
            <input
              type="search"
              name="q"
              required
              maxLength={255}
              autoComplete="off"
              className="mt-1 rounded border border-slate-300 px-2 py-1.5"
            />
          </label>
          <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 text-sm font-medium text-white">
            Search the inbox
          </button>
        </form>
      )}
      <nav aria-label="Ways on" className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        {actions}
        {back && (
          <a href={back} className="text-blue-800 underline">
            Back to the previous page
          </a>
        )}
        <Link href="/" className="text-blue-800 underline">
          Go to the overview
        </Link>
      </nav>
    </section>
  );
}
