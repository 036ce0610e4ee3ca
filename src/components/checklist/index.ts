export { Checklist, type ChecklistProps, type HiddenLines } from './checklist.js';
export { ChecklistRow, type ChecklistRowProps } from './checklist-row.js';
export { CheckSymbol } from './check-symbol.js';
export { foldChildren, foldedLines, foldPassed, type ChecklistFold } from './fold.js';
export { checklistLines, formatChecklist, type CheckItem, type CheckState, type ChecklistLine } from '../../checklist/checklist.js';
