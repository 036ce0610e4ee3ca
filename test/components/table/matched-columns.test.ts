import { describe, expect, it } from 'vitest';
import { keepMatchedColumns } from '../../../src/components/table/index.js';

interface Row {
  name: string;
  zone: string;
  role: string;
}

const col = (key: keyof Row, drop?: number) => ({
  key,
  header: key.toUpperCase(),
  min: 4,
  ...(drop !== undefined ? { drop } : {}),
  value: (r: Row) => r[key],
});
const COLUMNS = [col('name'), col('role', 2), col('zone', 3)];
const ROWS: Row[] = [
  { name: 'eu-node-1', zone: 'europe-west1-b', role: 'worker' },
  { name: 'eu-node-2', zone: 'europe-west1-c', role: 'control-plane' },
];
const drops = (columns: readonly { key: string; drop?: number }[]) => columns.map((c) => c.drop);

describe('keepMatchedColumns', () => {
  it('takes the drop off a column that alone shows why a row matched', () => {
    expect(drops(keepMatchedColumns(COLUMNS, ROWS.slice(1), 'WEST1-C'))).toEqual([undefined, 2, undefined]);
  });

  it('leaves the columns as they are when a column always shown holds the match, or without a filter', () => {
    expect(keepMatchedColumns(COLUMNS, ROWS, 'eu-node')).toBe(COLUMNS);
    expect(keepMatchedColumns(COLUMNS, ROWS, '  ')).toBe(COLUMNS);
  });

  it('keeps one column per row, the last to be dropped, when several hold the match', () => {
    const rows = [{ name: 'n1', zone: 'zone-ctl', role: 'ctl' }];
    expect(drops(keepMatchedColumns(COLUMNS, rows, 'ctl'))).toEqual([undefined, undefined, 3]);
  });
});
