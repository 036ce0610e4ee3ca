/** Sizes as the seed prints them: GB are binary (1024³ bytes), as lsblk and vgs count them. */

export const GB = 1024 ** 3;

/** Whole GB, rounded down from the exact bytes. */
export function floorGB(bytes: number): number {
  return Math.floor(bytes / GB);
}

/** "87.1": one decimal, as the seed prints volume groups. */
export function gb1(bytes: number): string {
  return (Math.round((bytes / GB) * 10) / 10).toFixed(1);
}

/** Bytes as GB with one decimal and the unit, as the seed prints volume groups ("93.1 GB", "0.0 GB"). */
export function formatGB(bytes: number): string {
  return `${(bytes / GB).toFixed(1)} GB`;
}

/** An amount already in GB, without float noise and without the unit: 10 → "10", 2.5 → "2.5", 0.1 + 0.2 → "0.3". */
export function formatGBAmount(gb: number): string {
  return String(roundGB(gb));
}

/** GB to three decimals: sums of decimal sizes without float noise. */
export function roundGB(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/**
 * Sizes as lsblk prints them (util-linux size_to_human_string): binary units, one decimal
 * rounded half up and dropped when zero ("50G", "93.1G", "1M", "512B").
 */
export function formatSize(b: number): string {
  const n = Math.max(0, Math.floor(b));
  let exp = 0;
  while (exp < 60 && n >= 2 ** (exp + 10)) exp += 10;
  const letter = 'BKMGTPE'[exp / 10]!;
  const unit = 2 ** exp;
  let dec = Math.floor(n / unit);
  let frac = exp ? n % unit : 0;
  if (frac) {
    frac = Math.floor((frac * 1000) / unit); // three digits
    frac = Math.floor((frac + 50) / 100); // one digit, rounded half up
    if (frac === 10) {
      dec++;
      frac = 0;
    }
  }
  return frac ? `${dec}.${frac}${letter}` : `${dec}${letter}`;
}
