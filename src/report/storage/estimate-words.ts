/** The storage estimate's amounts in words, as the Storage tab's dialogue and its inventory page say them. */
import { formatGBAmount } from '../../storage/units.js';

/** Under every estimate: what the amounts are per. */
export const REMINDER = 'Remember each node needs this amount of storage';

/** An amount in GB as the estimate prints it: "20 GB", "2.5 GB". */
export const gbAmount = (n: number) => `${formatGBAmount(n)} GB`;

/** "Shared 20 GB, Unshared 14 GB". */
export function amounts(a: { shared: number; unshared: number }): string {
  return `Shared ${gbAmount(a.shared)}, Unshared ${gbAmount(a.unshared)}`;
}

/** "short 10 GB unshared", "short 5 GB shared, 2 GB unshared", or "" when it fits. */
export function shortfallText(s: { shared: number; unshared: number }): string {
  const parts = [s.shared > 0 ? `${gbAmount(s.shared)} shared` : '', s.unshared > 0 ? `${gbAmount(s.unshared)} unshared` : ''].filter(
    Boolean,
  );
  return parts.length ? `short ${parts.join(', ')}` : '';
}
