export { Checklist, type ChecklistProps } from './checklist.js';
export { ChecklistRow, type ChecklistRowProps } from './checklist-row.js';
export { CheckSymbol } from './check-symbol.js';
export { checklistLines, formatChecklist, type CheckItem, type CheckState, type ChecklistLine } from '../../checklist/checklist.js';
