// Inline SVG charts for the HTML report: scatter and line plots on log axes, no dependencies.
export interface Series {
  label: string;
  color: string;
  points: Array<[number, number]>;
  /** Join the points (sorted by x) with a line. */
  line?: boolean;
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Reference lines y = k·x, e.g. the token goals. */
  refs?: Array<{ label: string; k: number }>;
  width?: number;
  height?: number;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function tickLabel(v: number): string {
  if (v >= 1e6) return `${v / 1e6}M`;
  if (v >= 1e3) return `${v / 1e3}k`;
  return String(v);
}

function logDomain(values: number[]): [number, number] {
  const v = values.filter((x) => x > 0 && Number.isFinite(x));
  if (!v.length) return [1, 10];
  let lo = Math.floor(Math.log10(Math.min(...v)));
  let hi = Math.ceil(Math.log10(Math.max(...v)));
  if (hi === lo) hi++;
  return [lo, hi];
}

export function logChart(o: ChartOptions): string {
  const W = o.width ?? 640, H = o.height ?? 380;
  const m = { l: 64, r: 16, t: 34, b: 64 };
  const pw = W - m.l - m.r, ph = H - m.t - m.b;
  const pts = o.series.flatMap((s) => s.points);
  const [x0, x1] = logDomain(pts.map((p) => p[0]));
  const [y0, y1] = logDomain(pts.map((p) => p[1]));
  const sx = (x: number) => m.l + ((Math.log10(x) - x0) / (x1 - x0)) * pw;
  const sy = (y: number) => m.t + ph - ((Math.log10(y) - y0) / (y1 - y0)) * ph;
  const parts: string[] = [];
  const clip = `c${Math.random().toString(36).slice(2, 8)}`;
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="system-ui,sans-serif" font-size="11">`);
  parts.push(`<defs><clipPath id="${clip}"><rect x="${m.l}" y="${m.t}" width="${pw}" height="${ph}"/></clipPath></defs>`);
  parts.push(`<text x="${W / 2}" y="18" text-anchor="middle" font-size="13" font-weight="600">${esc(o.title)}</text>`);
  for (let e = x0; e <= x1; e++) {
    const x = sx(10 ** e);
    parts.push(`<line x1="${x}" y1="${m.t}" x2="${x}" y2="${m.t + ph}" stroke="#e5e5e5"/><text x="${x}" y="${m.t + ph + 14}" text-anchor="middle" fill="#555">${tickLabel(10 ** e)}</text>`);
  }
  for (let e = y0; e <= y1; e++) {
    const y = sy(10 ** e);
    parts.push(`<line x1="${m.l}" y1="${y}" x2="${m.l + pw}" y2="${y}" stroke="#e5e5e5"/><text x="${m.l - 6}" y="${y + 4}" text-anchor="end" fill="#555">${tickLabel(10 ** e)}</text>`);
  }
  parts.push(`<rect x="${m.l}" y="${m.t}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
  parts.push(`<text x="${m.l + pw / 2}" y="${H - 34}" text-anchor="middle" fill="#333">${esc(o.xLabel)}</text>`);
  parts.push(`<text transform="translate(14 ${m.t + ph / 2}) rotate(-90)" text-anchor="middle" fill="#333">${esc(o.yLabel)}</text>`);
  parts.push(`<g clip-path="url(#${clip})">`);
  for (const r of o.refs ?? []) {
    const a = 10 ** x0, b = 10 ** x1;
    parts.push(`<line x1="${sx(a)}" y1="${sy(a * r.k)}" x2="${sx(b)}" y2="${sy(b * r.k)}" stroke="#888" stroke-dasharray="4 3"/>`);
    // Label the line where it is still inside the plot.
    const lx = Math.min(10 ** (x1 - 0.15 * (x1 - x0)), 10 ** (y1 - 0.08 * (y1 - y0)) / r.k);
    parts.push(`<text x="${sx(lx)}" y="${sy(lx * r.k) - 4}" fill="#666" text-anchor="middle">${esc(r.label)}</text>`);
  }
  for (const s of o.series) {
    const p = s.points.filter((q) => q[0] > 0 && q[1] > 0);
    if (s.line && p.length > 1) {
      const d = [...p].sort((a, b) => a[0] - b[0]).map((q, i) => `${i ? 'L' : 'M'}${sx(q[0]).toFixed(1)},${sy(q[1]).toFixed(1)}`).join('');
      parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    }
    for (const q of p) parts.push(`<circle cx="${sx(q[0]).toFixed(1)}" cy="${sy(q[1]).toFixed(1)}" r="${s.line ? 3.5 : 2.6}" fill="${s.color}" fill-opacity="${s.line ? 1 : 0.6}"/>`);
  }
  parts.push('</g>');
  // Legend under the x label, left to right.
  let lx = m.l;
  for (const s of o.series) {
    parts.push(`<circle cx="${lx + 5}" cy="${H - 12}" r="4" fill="${s.color}"/><text x="${lx + 13}" y="${H - 8}" fill="#333">${esc(s.label)}</text>`);
    lx += 22 + s.label.length * 6.2;
  }
  parts.push('</svg>');
  return parts.join('');
}
