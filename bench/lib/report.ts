/**
 * The bench's rows, their budgets, and the one table they print as. Pure: no I/O, so it is unit-tested
 * (report.test.ts). Figures are compared with their baselines as ratios, because these machines are
 * noisy: a ratio of two figures measured side by side moves much less than either figure.
 */

export type Unit = 'ms' | 'µs' | 'KB' | 'MB' | 'req/s' | 'events/s' | 'requests' | 'events';

export interface Quantity {
  value: number;
  unit: Unit;
}

export interface Budget {
  /** Whether the limit applies to the figure itself or to figure ÷ baseline. */
  on: 'figure' | 'ratio';
  op: '<=' | '>=' | '=';
  limit: number;
}

export interface Row {
  /** The issue's row number (1 to 6 of the performance issue, 7 the leads table of issue 18); a row may print as several lines. */
  row: number;
  measure: string;
  figure: Quantity | null;
  baseline: (Quantity & { label: string }) | null;
  /** figure ÷ baseline, when both were measured. */
  ratio: number | null;
  budget: Budget | null;
  /** null: no budget, or nothing measured. */
  holds: boolean | null;
  /** How it was measured, when that differs from the issue (quick mode, a stand-in baseline…). */
  notes: string[];
  /** Why nothing was measured. */
  error?: string;
}

export interface RowInput {
  row: number;
  measure: string;
  figure: Quantity | null;
  baseline?: (Quantity & { label: string }) | null;
  budget?: Budget | null;
  notes?: string[];
}

/** A measured line: its ratio and whether its budget holds follow from the figures. */
export function makeRow(input: RowInput): Row {
  const baseline = input.baseline ?? null;
  const ratio = input.figure && baseline && baseline.value !== 0 ? input.figure.value / baseline.value : null;
  const budget = input.budget ?? null;
  return {
    row: input.row,
    measure: input.measure,
    figure: input.figure,
    baseline,
    ratio,
    budget,
    holds: budget ? judge(budget, input.figure?.value ?? null, ratio) : null,
    notes: input.notes ?? [],
  };
}

/** A line whose measurement failed: it still prints, with its budget, and holds nothing. */
export function failedRow(row: number, measure: string, budget: Budget | null, error: unknown): Row {
  return {
    row,
    measure,
    figure: null,
    baseline: null,
    ratio: null,
    budget,
    holds: null,
    notes: [],
    error: error instanceof Error ? error.message.split('\n')[0] : String(error),
  };
}

export function judge(budget: Budget, figure: number | null, ratio: number | null): boolean | null {
  const value = budget.on === 'ratio' ? ratio : figure;
  if (value === null || !Number.isFinite(value)) return null;
  switch (budget.op) {
    case '<=':
      return value <= budget.limit;
    case '>=':
      return value >= budget.limit;
    case '=':
      return value === budget.limit;
  }
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const grouped = (value: number, digits: number): string =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

export function formatQuantity(q: Quantity): string {
  switch (q.unit) {
    case 'ms':
      return `${grouped(q.value, q.value < 10 ? 2 : q.value < 100 ? 1 : 0)} ms`;
    case 'µs':
      return `${grouped(q.value, 0)} µs`;
    case 'KB':
    case 'MB':
      return `${grouped(q.value, 1)} ${q.unit}`;
    case 'req/s':
    case 'events/s':
    case 'requests':
    case 'events':
      return `${grouped(q.value, 0)} ${q.unit}`;
  }
}

export function formatRatio(ratio: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return '—';
  return ratio !== 0 && Math.abs(ratio) < 0.01 ? ratio.toExponential(1) : grouped(ratio, 2);
}

export function formatBudget(budget: Budget | null, unit: Unit | null): string {
  if (!budget) return '—';
  const op = { '<=': '≤', '>=': '≥', '=': '=' }[budget.op];
  if (budget.on === 'ratio') return `ratio ${op} ${budget.limit}`;
  return `${op} ${unit ? formatQuantity({ value: budget.limit, unit }) : String(budget.limit)}`;
}

function holdsText(row: Row): string {
  if (row.error !== undefined) return 'ERROR';
  if (!row.budget) return '—';
  if (row.holds === null) return '?';
  return row.holds ? 'yes' : 'NO';
}

const COLUMNS = ['row', 'measure', 'figure', 'baseline', 'ratio', 'budget', 'holds'] as const;

/** One line per row, columns padded to fit; notes and errors follow, numbered by row. */
export function renderTable(rows: readonly Row[]): string {
  const cells = rows.map((r) => [
    String(r.row),
    r.measure,
    r.figure ? formatQuantity(r.figure) : r.error === undefined ? '—' : 'not measured',
    r.baseline ? `${formatQuantity(r.baseline)} (${r.baseline.label})` : '—',
    formatRatio(r.ratio),
    formatBudget(r.budget, r.figure?.unit ?? null),
    holdsText(r),
  ]);
  const header = [...COLUMNS];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]) =>
    c
      .map((text, i) => text.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)];
  const remarks = rows.flatMap((r) => [
    ...(r.error === undefined ? [] : [`${r.row}    ${r.measure}: ${r.error}`]),
    ...r.notes.map((n) => `${r.row}    ${n}`),
  ]);
  if (remarks.length > 0) out.push('', 'notes', ...new Set(remarks));
  const failing = rows.filter((r) => r.budget && r.holds === false);
  const unknown = rows.filter((r) => r.budget && r.holds === null);
  out.push(
    '',
    failing.length === 0 && unknown.length === 0
      ? 'every budget holds'
      : [
          failing.length > 0
            ? `budgets NOT holding: ${failing.map((r) => `row ${r.row} (${r.measure})`).join('; ')}`
            : '',
          unknown.length > 0
            ? `budgets not measured: ${unknown.map((r) => `row ${r.row} (${r.measure})`).join('; ')}`
            : '',
        ]
          .filter((s) => s !== '')
          .join('\n'),
  );
  return out.join('\n');
}
