import type { CheckItem } from '../checklist/checklist.js';

/** One preflight row. */
export const row = (id: string, label: string, v: Omit<CheckItem, 'id' | 'label'>): CheckItem => ({ id, label, ...v });
