"use client";

import Form from "next/form";
import Link from "next/link";
import type { RefObject } from "react";
import { filtersToQuery, type InboxFilters } from "@/lib/inbox/filters";

type Option = { id: string; name: string };

/**
 * The inbox's filters as a GET form (next/form): they live in the URL, so a view can be
 * shared, and they work before (and without) JavaScript.
 */
export function InboxFiltersForm({
  filters,
  tenants,
  providers,
  currencies,
  searchRef,
}: {
  filters: InboxFilters;
  tenants: Option[];
  providers: Option[];
  currencies: string[];
  searchRef: RefObject<HTMLInputElement | null>;
}) {
  const exportQuery = filtersToQuery(filters);
  return (
    <Form
      action="/inbox"
      aria-label="Inbox filters"
      className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3 text-sm"
    >
      <label className="flex flex-col">
        <span className="text-xs text-slate-600">
          Search by prefix (key, object, workflow, customer or provider id)
        </span>
        <input
          ref={searchRef}
          name="q"
          type="search"
          defaultValue={filters.q ?? ""}
          className="w-80 rounded border border-slate-300 px-2 py-1"
          placeholder="inv_42 or invoice:inv_42"
        />
      </label>
      <Select label="Tenant" name="tenant" value={filters.tenant} options={tenants} />
      <Select label="Provider" name="provider" value={filters.provider} options={providers} />
      <Select
        label="Age"
        name="age"
        value={filters.age}
        options={[
          { id: "over_window", name: "Past response window" },
          { id: "over_1h", name: "Older than 1 h" },
          { id: "over_24h", name: "Older than 24 h" },
        ]}
        anyLabel="Any age"
      />
      <fieldset className="flex items-end gap-1">
        <legend className="sr-only">Amount (in one currency)</legend>
        <Select
          label="Currency"
          name="currency"
          value={filters.currency}
          options={currencies.map((c) => ({ id: c, name: c }))}
          anyLabel="Any"
        />
        <AmountInput label="Amount from" name="min" value={filters.min} />
        <AmountInput label="Amount to" name="max" value={filters.max} />
      </fieldset>
      <Select
        label="Claim"
        name="claim"
        value={filters.claim}
        options={[
          { id: "unclaimed", name: "Unclaimed" },
          { id: "claimed", name: "Claimed" },
          { id: "mine", name: "Mine" },
        ]}
        anyLabel="Anyone's"
      />
      <Select
        label="Needs operator"
        name="needsOperator"
        value={filters.needsOperator}
        options={[
          { id: "1", name: "Needs operator" },
          { id: "0", name: "Not flagged" },
        ]}
        anyLabel="Either"
      />
      <Select
        label="Being reconciled"
        name="auto"
        value={filters.auto === "show" ? "show" : undefined}
        options={[{ id: "show", name: "Show" }]}
        anyLabel="Hide"
      />
      <Select
        label="Order"
        name="sort"
        value={filters.sort === "oldest" ? "oldest" : undefined}
        options={[{ id: "oldest", name: "Oldest first" }]}
        anyLabel="Act before (soonest)"
      />
      <button type="submit" className="rounded bg-slate-900 px-3 py-1.5 font-medium text-white">
        Filter
      </button>
      <Link href="/inbox" className="px-1 py-1.5 text-slate-600 underline">
        Reset
      </Link>
      <a
        href={`/api/inbox/export?${exportQuery}`}
        className="ml-auto rounded border border-slate-300 px-3 py-1.5"
        download
      >
        Export CSV
      </a>
    </Form>
  );
}

function Select({
  label,
  name,
  value,
  options,
  anyLabel = "All",
}: {
  label: string;
  name: string;
  value: string | undefined;
  options: Option[];
  anyLabel?: string;
}) {
  return (
    <label className="flex flex-col">
      <span className="text-xs text-slate-600">{label}</span>
      <select
        name={name}
        defaultValue={value === "any" ? "" : (value ?? "")}
        className="rounded border border-slate-300 px-2 py-1"
      >
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/** An amount in major units, in the currency beside it (without one, no amount filter). */
function AmountInput({ label, name, value }: { label: string; name: string; value: string | undefined }) {
  return (
    <label className="flex flex-col">
      <span className="text-xs text-slate-600">{label}</span>
      <input
        name={name}
        inputMode="decimal"
        defaultValue={value ?? ""}
        placeholder="1,000.00"
        className="w-24 rounded border border-slate-300 px-2 py-1"
      />
    </label>
  );
}
