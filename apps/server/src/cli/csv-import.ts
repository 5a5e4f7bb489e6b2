import { createReadStream } from 'node:fs';
import { LeadCreate, type LeadCreated } from '@embudo/contracts';
import { SingleBar, Presets } from 'cli-progress';
import { parse } from 'csv-parse';
import { csvRecord, toCsv } from '../lib/csv';
import { badRequest, type Issue } from '../lib/http-errors';

const BATCH = 500;

/**
 * Reads leads from a CSV file with a header row (`name`, and optionally `email`, `phone`). Every row
 * is checked before anything is written: one bad row stops the import and names its line.
 */
export async function readLeadsCsv(file: string): Promise<LeadCreate[]> {
  const leads: LeadCreate[] = [];
  const issues: Issue[] = [];
  const parser = createReadStream(file).pipe(
    parse({
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      bom: true,
    }),
  );
  let line = 1;
  for await (const record of parser as AsyncIterable<Record<string, string>>) {
    line++;
    const row = {
      name: record.name ?? '',
      ...(record.email ? { email: record.email } : {}),
      ...(record.phone ? { phone: record.phone } : {}),
    };
    const parsed = LeadCreate.safeParse(row);
    if (parsed.success) leads.push(parsed.data);
    else
      for (const issue of parsed.error.issues)
        issues.push({ path: `line ${line}: ${issue.path.join('.')}`, message: issue.message });
  }
  if (issues.length > 0) {
    throw badRequest(
      `${issues.length} problem(s) in ${file}; nothing was imported:\n${issues
        .slice(0, 20)
        .map((i) => `  ${i.path}: ${i.message}`)
        .join('\n')}`,
      issues,
    );
  }
  if (leads.length === 0)
    throw badRequest(`${file} has no leads (it needs a header row with a 'name' column)`);
  return leads;
}

/** Imports in batches of 500, showing a progress bar on a terminal. */
export async function importInBatches(
  leads: LeadCreate[],
  importBatch: (batch: LeadCreate[]) => Promise<LeadCreated[]>,
  showProgress: boolean,
): Promise<LeadCreated[]> {
  const bar = new SingleBar(
    { format: 'importing leads [{bar}] {value}/{total}', stream: process.stderr, noTTYOutput: false },
    Presets.shades_classic,
  );
  if (showProgress) bar.start(leads.length, 0);
  const created: LeadCreated[] = [];
  try {
    for (let i = 0; i < leads.length; i += BATCH) {
      created.push(...(await importBatch(leads.slice(i, i + BATCH))));
      if (showProgress) bar.update(created.length);
    }
  } finally {
    if (showProgress) bar.stop();
  }
  return created;
}

const LINK_HEADER = ['name', 'email', 'phone', 'url'] as const;
const linkCells = (l: LeadCreated) => [l.lead.name, l.lead.email, l.lead.phone, l.url];

/** The new leads' one-time links as a CSV file (lib/csv: RFC 4180, formulas neutralised). */
export function leadsToCsv(leads: LeadCreated[]): string {
  return toCsv(LINK_HEADER, leads.map(linkCells));
}

/** The same, one line per lead, for a terminal (each line still to be made printable). */
export function leadsToCsvLines(leads: LeadCreated[]): string[] {
  return [csvRecord(LINK_HEADER), ...leads.map((l) => csvRecord(linkCells(l)))];
}
