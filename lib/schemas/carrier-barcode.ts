// The carrier barcode's format, as the database issues it (migration 20261129040000_carrier_barcodes): CB, twelve
// digits, and a Luhn check digit. Checked before any lookup, so a mistyped or invented one is refused by its shape.

const FORMAT = /^CB(\d{12})(\d)$/;

/** The Luhn check digit of a string of digits. */
export function luhnCheckDigit(digits: string): number {
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    total += d;
  }
  return (10 - (total % 10)) % 10;
}

/** Whether `value` has the carrier barcode's shape and a right check digit (case-insensitive: scanners and people type `cb`). */
export function isCarrierBarcode(value: string): boolean {
  const match = FORMAT.exec(value.toUpperCase());
  return match !== null && luhnCheckDigit(match[1] ?? '') === Number(match[2]);
}

/** The stored spelling of a value isCarrierBarcode() accepted. */
export function normalizeCarrierBarcode(value: string): string {
  return value.toUpperCase();
}
