/** Rows whose text contains the filter, ignoring case; all of them for an empty filter. */
export function filterRows<Row>(rows: readonly Row[], filter: string, text: (row: Row) => string): Row[] {
  const f = filter.trim().toLowerCase();
  return f ? rows.filter((r) => text(r).toLowerCase().includes(f)) : [...rows];
}
