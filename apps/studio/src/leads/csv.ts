import { LeadCreate, MAX_LEADS_PER_IMPORT, type LeadCreated } from '@embudo/contracts';
import Papa from 'papaparse';
import type { FieldIssue } from '../api/api';

/** The columns a leads CSV has (any order, any case); only `name` is required. */
export const CSV_COLUMNS = ['name', 'email', 'phone'] as const;

/** A fault of one row: its line in the file (the header is line 1), the field and why. */
export interface RowIssue {
  row: number;
  field: string;
  message: string;
}

export interface ParsedLeads {
  /** The leads, in file order; only meaningful when `issues` is empty. */
  leads: LeadCreate[];
  /** The line in the file of each lead. */
  rows: number[];
  issues: RowIssue[];
  /** Set when the file cannot be read as a leads CSV at all (no `name` column, no rows). */
  fileError: 'noNameColumn' | 'empty' | null;
}

const clean = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * Reads a CSV of leads and checks every row with the contracts' LeadCreate, the same rules the
 * server applies; empty email or phone cells mean none.
 */
export function parseLeadsCsv(text: string): ParsedLeads {
  const parsed = Papa.parse<Record<string, string | undefined>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    // Blank lines are kept (and skipped below) so that each record's index is its spreadsheet row.
    skipEmptyLines: false,
    transformHeader: (header) => header.trim().toLowerCase(),
  });
  const fields = parsed.meta.fields ?? [];
  if (!fields.includes('name')) return { leads: [], rows: [], issues: [], fileError: 'noNameColumn' };
  const blank = (record: Record<string, string | undefined>) =>
    Object.values(record).every((value) => clean(value) === '');
  if (parsed.data.every(blank)) return { leads: [], rows: [], issues: [], fileError: 'empty' };
  const leads: LeadCreate[] = [];
  const rows: number[] = [];
  const issues: RowIssue[] = [];
  // Record i is row i + 2 as a spreadsheet numbers it (the header is row 1; a line break inside
  // quotes stays in its cell).
  parsed.data.forEach((record, index) => {
    if (blank(record)) return;
    const row = index + 2;
    const email = clean(record.email);
    const phone = clean(record.phone);
    const result = LeadCreate.safeParse({
      name: clean(record.name),
      email: email === '' ? null : email,
      phone: phone === '' ? null : phone,
    });
    if (result.success) {
      leads.push(result.data);
      rows.push(row);
    } else {
      for (const issue of result.error.issues)
        issues.push({ row, field: String(issue.path[0] ?? 'name'), message: issue.message });
    }
  });
  return { leads, rows, issues, fileError: null };
}

/**
 * The server's default request body limit is 1 MiB (BODY_LIMIT_BYTES): a batch stays well under it
 * whatever the length of the names and e-mails.
 */
export const MAX_BATCH_BYTES = 768 * 1024;

/**
 * The leads in calls of at most MAX_LEADS_PER_IMPORT each (the server refuses more in one) and at most
 * MAX_BATCH_BYTES of JSON.
 */
export function chunk<T>(
  items: readonly T[],
  size = MAX_LEADS_PER_IMPORT,
  maxBytes = MAX_BATCH_BYTES,
): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  const encoder = new TextEncoder();
  for (const item of items) {
    const itemBytes = encoder.encode(JSON.stringify(item)).length + 1;
    if (current.length > 0 && (current.length >= size || bytes + itemBytes > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += itemBytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The server's issues of an import call (`leads.<i>.<field>`, `body.` already taken off) as rows of
 * the file: `rows` holds the line of each lead that was sent, `offset` the chunk's first lead.
 */
export function rowIssuesOf(
  issues: readonly FieldIssue[],
  rows: readonly number[],
  offset: number,
): RowIssue[] {
  return issues.map((issue) => {
    const match = /^leads\.(\d+)(?:\.(\w+))?/.exec(issue.field);
    if (!match) return { row: 0, field: issue.field, message: issue.message };
    const row = rows[offset + Number(match[1])] ?? 0;
    return { row, field: match[2] ?? 'name', message: issue.message };
  });
}

const FORMULA = /^(?:[=@\t\r]|[+-](?![\d ()-]*$))/;

/** The CSV the owner downloads after an import: each new lead with its link (shown only this once). */
export function linksCsv(created: readonly LeadCreated[]): string {
  return Papa.unparse(
    {
      fields: ['name', 'email', 'phone', 'url'],
      data: created.map(({ lead, url }) => [lead.name, lead.email ?? '', lead.phone ?? '', url]),
    },
    // A cell a spreadsheet would run as a formula is prefixed with ' (a phone number such as
    // +52 55 1234 5678 is left as it is).
    { escapeFormulae: FORMULA, newline: '\r\n' },
  );
}
