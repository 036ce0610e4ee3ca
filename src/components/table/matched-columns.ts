/** Which columns a filtered table keeps for the filter's sake: the one that shows why a row matched. */

/** What is read of a column: its key, whether it may be left out, its cell as text. */
interface FilteredColumn<Row> {
  key: string;
  drop?: number;
  value: (row: Row) => string;
}

/**
 * `columns` with `drop` taken off a column that alone shows why a row matched `filter` (its
 * cell holds the filter, ignoring case, and no column always shown does): a narrow table then
 * leaves out another droppable column instead, so every row shows what matched. Of the
 * droppable columns holding a row's match, the last to go is kept. The same array back when
 * nothing changes (no filter, or every match in sight).
 */
export function keepMatchedColumns<Row, C extends FilteredColumn<Row>>(
  columns: readonly C[],
  rows: readonly Row[],
  filter: string,
): readonly C[] {
  const f = filter.trim().toLowerCase();
  if (!f) return columns;
  const holds = (c: C, row: Row) => c.value(row).toLowerCase().includes(f);
  const fixed = columns.filter((c) => c.drop === undefined);
  // Last to go first: the one kept when several hold the match.
  const droppable = columns.filter((c) => c.drop !== undefined).sort((a, b) => (a.drop ?? 0) - (b.drop ?? 0));
  const kept = new Set<string>();
  for (const row of rows) {
    const shows = droppable.filter((c) => holds(c, row));
    if (shows.length === 0 || shows.some((c) => kept.has(c.key)) || fixed.some((c) => holds(c, row))) continue;
    kept.add(shows[0]!.key);
    if (kept.size === droppable.length) break;
  }
  if (kept.size === 0) return columns;
  return columns.map((c) => {
    if (!kept.has(c.key)) return c;
    const { drop: _drop, ...rest } = c;
    return rest as C;
  });
}
