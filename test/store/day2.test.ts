import { describe, expect, it } from 'vitest';
import { day2Answer, day2Busy, day2Opened, day2Stage, emptyDay2 } from '../../src/store/day2.js';

describe('the day2 slice', () => {
  it('drops an answer for a stage the page has left, keeps one for the current stage', () => {
    const opened = day2Opened(emptyDay2(), [{ id: 'backup', label: 'Back up now', inputs: [] }], { context: 'nova' });
    expect(opened.open).toBe(true);
    expect(opened.facts.context).toBe('nova');
    const planning = day2Stage(opened, { stage: 'planning', id: 'backup', inputs: {} });
    const seq = planning.seq;
    const back = day2Stage(planning, { stage: 'menu' });
    // The plan of the stage left behind arrives late: dropped.
    const late = day2Answer(back, seq, { stage: 'plan', id: 'backup', inputs: {}, lines: ['x'], todo: true });
    expect(late.stage).toEqual({ stage: 'menu' });
    const running = day2Stage(back, { stage: 'running', id: 'backup', inputs: {}, items: [] });
    expect(day2Busy(running)).toBe(true);
    const rows = day2Answer(running, running.seq, {
      stage: 'running',
      id: 'backup',
      inputs: {},
      items: [{ id: 'read', label: 'Read', state: 'running' }],
    });
    expect(rows.stage).toMatchObject({ items: [{ id: 'read' }] });
  });
});
