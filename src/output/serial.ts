/** A certificate serial as tables show it: enough hex digits to tell a renewed certificate from the one before. */
export const shortSerial = (serial: string | undefined): string =>
  !serial ? '-' : serial.length > 12 ? `${serial.slice(0, 12)}…` : serial;
