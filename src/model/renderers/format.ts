// Human-readable JSON for terminals: one top-level key per line and one array item (an element,
// a frame) per line, so a page of 50 elements reads as 50 lines rather than 500.
export function formatPayload(payload: object): string {
  const entries = Object.entries(payload);
  const lines = ['{'];
  entries.forEach(([key, value], i) => {
    const comma = i < entries.length - 1 ? ',' : '';
    if (Array.isArray(value) && value.length && typeof value[0] === 'object') {
      lines.push(`  ${JSON.stringify(key)}: [`);
      value.forEach((item, j) => lines.push(`    ${JSON.stringify(item)}${j < value.length - 1 ? ',' : ''}`));
      lines.push(`  ]${comma}`);
    } else {
      lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(value)}${comma}`);
    }
  });
  lines.push('}');
  return lines.join('\n');
}
