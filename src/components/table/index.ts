export { Table, type Column, type CellPart, type TableProps, type TableFooter } from './table.js';
export { layoutColumns, scrollWindow, splitCell, visibleColumns, type ColumnSpec, type DroppableSpec } from './layout.js';
export { keepMatchedColumns } from './matched-columns.js';
