import { addDays, todayIn } from '@kanak/contract';

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `timeZone` at `moment`: its date and time as if they were UTC. */
function wallClock(timeZone: string, moment: Date): number {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    clockFormats.set(timeZone, format);
  }
  const part = Object.fromEntries(
    format.formatToParts(moment).map(({ type, value }) => [type, Number(value)]),
  );
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!);
}

/** The moment the store's clock shows `hour`:`minute` on `isoDate`. */
export function storeMoment(timeZone: string, isoDate: string, hour: number, minute = 0): Date {
  const wanted = Date.parse(
    `${isoDate}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`,
  );
  // The zone's offset at a first guess, then again at the answer (a change of offset between).
  let moment = wanted - (wallClock(timeZone, new Date(wanted)) - wanted);
  moment = wanted - (wallClock(timeZone, new Date(moment)) - moment);
  return new Date(moment);
}

/**
 * `now` if the store's clock shows an hour in [startHour, endHour), else the next moment it
 * shows startHour: a reminder queued at night waits for the morning.
 */
export function nextStoreHours(
  timeZone: string,
  now: Date,
  startHour: number,
  endHour: number,
): Date {
  const hour = new Date(wallClock(timeZone, now)).getUTCHours();
  if (hour >= startHour && hour < endHour) return now;
  const today = todayIn(timeZone, now);
  return storeMoment(timeZone, hour < startHour ? today : addDays(today, 1), startHour);
}
