import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import type { MaintenanceWindow } from '../../../src/rollout/guards/types.js';
import { formatUntil, parseWindow, validateWindow, windowText, windowVerdict } from '../../../src/rollout/guards/windows.js';

const FORM = 'expected DAYS HH:MM-HH:MM [ZONE], e.g. "Sat,Sun 02:00-06:00 Europe/Berlin", "Mon-Fri 22:00-04:00 UTC", "* 01:00-05:00"';

/** The error parseWindow throws for `text` (undefined when it parses). */
function errorOf(text: string): Error | undefined {
  try {
    parseWindow(text);
  } catch (e) {
    return e as Error;
  }
  return undefined;
}

const verdict = (texts: string[], iso: string) => windowVerdict(texts.map(parseWindow), new Date(iso));

describe('parseWindow', () => {
  it('reads days, times and zone', () => {
    expect(parseWindow('Sat,Sun 02:00-06:00 Europe/Berlin')).toEqual({
      days: ['Sat', 'Sun'],
      start: '02:00',
      end: '06:00',
      timeZone: 'Europe/Berlin',
    });
  });

  it('reads ranges, full names in any case, * for every day, and defaults the zone to UTC', () => {
    expect(parseWindow('mon-FRI 22:00-04:00 UTC').days).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']);
    expect(parseWindow('saturday,SUNDAY 02:00-06:00').days).toEqual(['Sat', 'Sun']);
    expect(parseWindow('* 01:00-05:00')).toEqual({
      days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
      start: '01:00',
      end: '05:00',
      timeZone: 'UTC',
    });
  });

  it('reads a range that wraps over the week end, and 24:00 as an end', () => {
    expect(parseWindow('Fri-Mon 00:00-24:00')).toEqual({
      days: ['Mon', 'Fri', 'Sat', 'Sun'],
      start: '00:00',
      end: '24:00',
      timeZone: 'UTC',
    });
  });

  it('refuses each mistake with one line naming it and showing the form', () => {
    const messages = [
      'Sat 25:00-06:00',
      'Sat 7:5-06:00',
      'Sat 02:00-24:30',
      'Sat 02:00-02:00',
      'Sonday 02:00-06:00',
      'Mon-Fry 02:00-06:00',
      'Sat 02:00-06:00 Mars/Olympus',
      'Sat 02:00',
      'Sat',
    ].map((t) => errorOf(t)?.message);
    expect(messages).toEqual([
      `bad maintenance window "Sat 25:00-06:00": start "25:00" is not a time HH:MM from 00:00 to 23:59; ${FORM}`,
      `bad maintenance window "Sat 7:5-06:00": start "7:5" is not a time HH:MM from 00:00 to 23:59; ${FORM}`,
      `bad maintenance window "Sat 02:00-24:30": end "24:30" is not a time HH:MM from 00:00 to 24:00; ${FORM}`,
      `bad maintenance window "Sat 02:00-02:00": start and end are the same time (02:00-02:00): the window would be empty or never close; ${FORM}`,
      `bad maintenance window "Sonday 02:00-06:00": unknown day "Sonday" (Mon … Sun, Monday … Sunday, or *); ${FORM}`,
      `bad maintenance window "Mon-Fry 02:00-06:00": unknown day "Mon-Fry" (Mon … Sun, Monday … Sunday, or *); ${FORM}`,
      `bad maintenance window "Sat 02:00-06:00 Mars/Olympus": unknown time zone "Mars/Olympus" (an IANA name such as UTC or Europe/Berlin); ${FORM}`,
      `bad maintenance window "Sat 02:00": "02:00" is not HH:MM-HH:MM; ${FORM}`,
      `bad maintenance window "Sat": wrong number of parts; ${FORM}`,
    ]);
    expect(errorOf('Sat 25:00-06:00')).toBeInstanceOf(UsageError);
  });
});

describe('validateWindow', () => {
  const good: MaintenanceWindow = { days: ['Sat'], start: '02:00', end: '06:00', timeZone: 'Europe/Berlin' };

  it('passes a sound window and names the problem of a broken one', () => {
    expect(validateWindow(good)).toBeUndefined();
    expect(validateWindow({ ...good, days: [] })).toBe('no days (give days such as Sat,Sun, Mon-Fri or *)');
    expect(validateWindow({ ...good, days: ['Sat', 'Caturday' as 'Sat'] })).toBe(
      'unknown day "Caturday" (one of Sun, Mon, Tue, Wed, Thu, Fri, Sat)',
    );
    expect(validateWindow({ ...good, start: '24:00' })).toBe('start "24:00" is not a time HH:MM from 00:00 to 23:59');
    expect(validateWindow({ ...good, timeZone: 'CEST+2' })).toBe('unknown time zone "CEST+2" (an IANA name such as UTC or Europe/Berlin)');
  });
});

describe('windowText', () => {
  it('writes the canonical form, Monday first, runs of three or more days as ranges, which parseWindow reads back', () => {
    const texts = [
      'sun,sat 02:00-06:00 Europe/Berlin',
      'Mon-Fri 22:00-04:00',
      'Fri-Mon 00:00-24:00 UTC',
      'Mon,Wed,Thu 01:00-02:00',
      '* 01:00-05:00',
    ];
    const canonical = texts.map((t) => windowText(parseWindow(t)));
    expect(canonical).toEqual([
      'Sat,Sun 02:00-06:00 Europe/Berlin',
      'Mon-Fri 22:00-04:00 UTC',
      'Mon,Fri-Sun 00:00-24:00 UTC',
      'Mon,Wed,Thu 01:00-02:00 UTC',
      '* 01:00-05:00 UTC',
    ]);
    expect(canonical.map((t) => windowText(parseWindow(t)))).toEqual(canonical);
    expect(canonical.map(parseWindow)).toEqual(texts.map(parseWindow));
  });
});

describe('formatUntil', () => {
  it('gives the two largest units, rounded down', () => {
    expect(
      [30_000, 45 * 60_000 + 59_000, (3 * 60 + 12) * 60_000, 3 * 3_600_000, 52 * 3_600_000 + 59 * 60_000, 48 * 3_600_000, -5].map(
        formatUntil,
      ),
    ).toEqual(['30 s', '45 min', '3 h 12 min', '3 h', '2 d 4 h', '2 d', '0 s']);
  });
});

describe('windowVerdict', () => {
  it('is always open without windows', () => {
    expect(windowVerdict([], new Date('2025-01-08T12:00:00Z'))).toEqual({ open: true, text: 'no maintenance window: any time' });
  });

  it('waits for the next opening, told in the window’s own zone', () => {
    expect(verdict(['Sat,Sun 02:00-06:00 Europe/Berlin'], '2025-01-10T21:48:00Z')).toEqual({
      open: false,
      opensAt: new Date('2025-01-11T01:00:00Z'),
      text: 'waiting for the window: opens Sat 02:00 Europe/Berlin (in 3 h 12 min)',
    });
  });

  it('is open inside a window and tells when it closes', () => {
    expect(verdict(['Sat,Sun 02:00-06:00 Europe/Berlin'], '2025-01-11T03:55:00Z')).toEqual({
      open: true,
      closesAt: new Date('2025-01-11T05:00:00Z'),
      text: 'in the window Sat,Sun 02:00-06:00 Europe/Berlin (closes in 1 h 5 min)',
    });
  });

  it('is open at the start and closed at the end', () => {
    expect(verdict(['Sat 02:00-06:00 UTC'], '2025-01-11T02:00:00Z').open).toBe(true);
    expect(verdict(['Sat 02:00-06:00 UTC'], '2025-01-11T06:00:00Z')).toMatchObject({
      open: false,
      opensAt: new Date('2025-01-18T02:00:00Z'),
    });
  });

  it('keeps a window that crosses midnight open into the next day, for the day it starts on only', () => {
    expect(verdict(['Fri 22:00-04:00 UTC'], '2025-01-11T03:00:00Z')).toEqual({
      open: true,
      closesAt: new Date('2025-01-11T04:00:00Z'),
      text: 'in the window Fri 22:00-04:00 UTC (closes in 1 h)',
    });
    expect(verdict(['Fri 22:00-04:00 UTC'], '2025-01-10T03:00:00Z').text).toBe('waiting for the window: opens Fri 22:00 UTC (in 19 h)');
    expect(verdict(['Fri 22:00-04:00 UTC'], '2025-01-11T04:00:00Z').text).toBe('waiting for the window: opens Fri 22:00 UTC (in 6 d 18 h)');
  });

  it('ends a window at 24:00 at the next midnight', () => {
    expect(verdict(['Mon 20:00-24:00'], '2025-01-13T23:59:00Z')).toMatchObject({ open: true, closesAt: new Date('2025-01-14T00:00:00Z') });
    expect(verdict(['Mon 20:00-24:00'], '2025-01-14T00:00:00Z').open).toBe(false);
  });

  it('joins windows that meet into one stretch, and gives no close for one that never closes', () => {
    expect(verdict(['Mon-Fri 00:00-24:00'], '2025-01-08T12:00:00Z')).toMatchObject({
      open: true,
      closesAt: new Date('2025-01-11T00:00:00Z'),
    });
    expect(verdict(['* 00:00-24:00'], '2025-01-08T12:00:00Z')).toEqual({ open: true, text: 'in the window * 00:00-24:00 UTC' });
  });

  it('with several windows, is open when any is and otherwise opens at the earliest', () => {
    const windows = ['Sat 02:00-06:00 Europe/Berlin', 'Wed 20:00-22:00 UTC'];
    expect(verdict(windows, '2025-01-07T12:00:00Z')).toEqual({
      open: false,
      opensAt: new Date('2025-01-08T20:00:00Z'),
      text: 'waiting for the window: opens Wed 20:00 UTC (in 1 d 8 h)',
    });
    expect(verdict(windows, '2025-01-08T21:00:00Z').text).toBe('in the window Wed 20:00-22:00 UTC (closes in 1 h)');
    expect(verdict(windows, '2025-01-09T12:00:00Z').text).toBe('waiting for the window: opens Sat 02:00 Europe/Berlin (in 1 d 13 h)');
  });

  describe('across daylight saving changes', () => {
    it('Europe/Berlin, last Sunday of March: a start in the skipped hour opens when the clocks jump', () => {
      expect(verdict(['Sun 02:00-06:00 Europe/Berlin'], '2025-03-29T23:30:00Z')).toEqual({
        open: false,
        opensAt: new Date('2025-03-30T01:00:00Z'),
        text: 'waiting for the window: opens Sun 03:00 Europe/Berlin (in 1 h 30 min)',
      });
      expect(verdict(['Sun 02:00-06:00 Europe/Berlin'], '2025-03-30T01:30:00Z')).toMatchObject({
        open: true,
        closesAt: new Date('2025-03-30T04:00:00Z'),
      });
    });

    it('Europe/Berlin, last Sunday of March: the night before the change is an hour shorter', () => {
      expect(verdict(['* 09:00-17:00 Europe/Berlin'], '2025-03-29T16:00:00Z')).toMatchObject({
        open: false,
        opensAt: new Date('2025-03-30T07:00:00Z'),
        text: 'waiting for the window: opens Sun 09:00 Europe/Berlin (in 15 h)',
      });
    });

    it('Europe/Berlin, last Sunday of October: the window gets the repeated hour, a repeated start is its first time', () => {
      expect(verdict(['Sun 01:00-05:00 Europe/Berlin'], '2025-10-26T00:30:00Z')).toEqual({
        open: true,
        closesAt: new Date('2025-10-26T04:00:00Z'),
        text: 'in the window Sun 01:00-05:00 Europe/Berlin (closes in 3 h 30 min)',
      });
      expect(verdict(['Sun 02:30-04:00 Europe/Berlin'], '2025-10-25T12:00:00Z')).toMatchObject({
        opensAt: new Date('2025-10-26T00:30:00Z'),
      });
    });

    it('America/New_York, second Sunday of March: a weekday night window after the change', () => {
      const windows = ['Mon-Fri 22:00-04:00 America/New_York'];
      expect(verdict(windows, '2025-03-08T03:30:00Z')).toMatchObject({ open: true, closesAt: new Date('2025-03-08T09:00:00Z') });
      expect(verdict(windows, '2025-03-08T12:00:00Z')).toEqual({
        open: false,
        opensAt: new Date('2025-03-11T02:00:00Z'),
        text: 'waiting for the window: opens Mon 22:00 America/New_York (in 2 d 14 h)',
      });
    });

    it('America/New_York, first Sunday of November: a window over the repeated hour lasts an hour longer', () => {
      expect(verdict(['Sun 01:00-03:00 America/New_York'], '2025-11-02T05:30:00Z')).toMatchObject({
        open: true,
        closesAt: new Date('2025-11-02T08:00:00Z'),
        text: 'in the window Sun 01:00-03:00 America/New_York (closes in 2 h 30 min)',
      });
    });
  });

  it('is quick enough to call every minute', () => {
    const windows = ['Sat,Sun 02:00-06:00 Europe/Berlin', 'Mon-Fri 22:00-04:00 America/New_York', 'Wed 12:00-13:00 Asia/Tokyo'].map(
      parseWindow,
    );
    const started = performance.now();
    for (let i = 0; i < 200; i++) windowVerdict(windows, new Date(Date.UTC(2025, 0, 1) + i * 3_600_000));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
