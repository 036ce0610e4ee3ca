export { Table, type Column, type TableProps } from './table.js';
export { layoutColumns, scrollWindow, type ColumnSpec } from './layout.js';
