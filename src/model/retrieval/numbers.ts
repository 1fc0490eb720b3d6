// Numbers as pages write them: "$1,299.99", "1.299,99 €", "4.6 out of 5".

/**
 * The first number in a text, read the way the text writes it: "$1,299.99" and "1.299,99 €" are
 * both 1299.99; "4.6 out of 5" is 4.6.
 */
export function parseNumber(text: string): number | undefined {
  const m = /-?\d[\d\s.,']*/.exec(text.replace(/\u00a0/g, ' '));
  if (!m) return undefined;
  let s = m[0].trim().replace(/[\s']/g, '').replace(/[.,]$/, '');
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    // The later separator is the decimal one.
    s = lastDot > lastComma ? s.replace(/,/g, '') : s.replace(/\./g, '').replace(',', '.');
  } else if (lastComma >= 0) {
    // "1,299" groups thousands; "12,5" has decimals.
    s = /,\d{3}$/.test(s) && !/,\d{3},?\d{1,2}$/.test(s) ? s.replace(/,/g, '') : s.replace(/,(?=[^,]*$)/, '.').replace(/,/g, '');
  } else if ((s.match(/\./g) ?? []).length > 1) {
    s = s.replace(/\.(?=.*\.)/g, '');
  }
  const v = Number(s);
  return Number.isFinite(v) ? v : undefined;
}
