/** A disruption budget from its parts as the flags and the file give them (a size text, what it counts, schedules). */
import { UsageError } from '../../errors.js';
import { cronProblem, parseBudgetSchedule, parseBudgetSize, validateBudget, type BudgetSchedule } from './budget.js';
import type { DisruptionBudget } from './types.js';

/** A schedule as the file gives it: the size as text (`0`, `20%`). */
export interface ScheduleParts {
  cron: string;
  durationMs: number;
  timeZone: string;
  size: string;
}

/** `--budget-schedule "0 at 0 9 * * mon-fri for 8h in Europe/Berlin"`. */
export const parseScheduleFlag = (text: string): BudgetSchedule => parseBudgetSchedule(text);

/** The budget; a UsageError naming what is wrong. */
export function budgetFromParts(
  size: string | undefined,
  of: 'cluster' | 'selected',
  schedules: readonly (ScheduleParts | BudgetSchedule)[],
): DisruptionBudget {
  const own = size === undefined ? {} : parseBudgetSize(size);
  const budget: DisruptionBudget = {
    ...own,
    of,
    schedules: schedules.map((s) => {
      if (typeof s.size !== 'string') return s as BudgetSchedule;
      const problem = cronProblem(s.cron);
      if (problem) throw new UsageError(problem);
      return { cron: s.cron, durationMs: s.durationMs, timeZone: s.timeZone, size: parseBudgetSize(s.size) };
    }),
  };
  const problem = validateBudget(budget);
  if (problem) throw new UsageError(problem);
  return budget;
}
