import { MAX_LEADS_PER_IMPORT, type LeadCreated } from '@embudo/contracts';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { chunk, linksCsv, MAX_BATCH_BYTES, parseLeadsCsv, rowIssuesOf } from './csv';

describe('reading a leads CSV', () => {
  it('reads name, email and phone in any order and case, empty cells as none', () => {
    const parsed = parseLeadsCsv(
      '\uFEFFPhone,NAME,Email\n+52 55 1234 5678,Ana López,ana@example.com\n,Bruno,\n',
    );
    expect(parsed.fileError).toBeNull();
    expect(parsed.issues).toEqual([]);
    expect(parsed.leads).toEqual([
      { name: 'Ana López', email: 'ana@example.com', phone: '+52 55 1234 5678' },
      { name: 'Bruno', email: null, phone: null },
    ]);
    expect(parsed.rows).toEqual([2, 3]);
  });

  it('names the spreadsheet row and the field of every bad cell, with the contracts’ message', () => {
    const parsed = parseLeadsCsv(
      [
        'name,email,phone',
        'Ana,ana@example.com,',
        ',nobody@example.com,',
        'Carla,not-an-email,abc',
        '',
        '"Dora, the second",dora@example.com,+55 11 99999-0000',
      ].join('\n'),
    );
    expect(parsed.issues.map(({ row, field }) => [row, field])).toEqual([
      [3, 'name'],
      [4, 'email'],
      [4, 'phone'],
    ]);
    expect(parsed.issues[2]?.message).toBe('a phone number is digits, spaces, brackets and dashes');
    expect(parsed.issues.every((issue) => issue.message.length > 0)).toBe(true);
    // The blank line is skipped, but still counts as a row of the file.
    expect(parsed.rows).toEqual([2, 6]);
    expect(parsed.leads.map((lead) => lead.name)).toEqual(['Ana', 'Dora, the second']);
  });

  it('refuses a file without a name column, or without rows', () => {
    expect(parseLeadsCsv('email,phone\na@example.com,123456\n').fileError).toBe('noNameColumn');
    expect(parseLeadsCsv('name,email\n\n\n').fileError).toBe('empty');
  });

  it('reads a 1,000-row file with one bad row as exactly that one problem', () => {
    const lines = ['name,email,phone'];
    for (let i = 1; i <= 1000; i += 1) lines.push(`Lead ${i},lead${i}@example.com,`);
    lines[500] = 'Lead 500,lead500-at-example.com,';
    const parsed = parseLeadsCsv(lines.join('\r\n'));
    expect(parsed.issues.map(({ row, field }) => [row, field])).toEqual([[501, 'email']]);
    expect(parsed.leads).toHaveLength(999);
  });
});

describe('sending and reporting an import', () => {
  it('cuts the leads into calls of at most the server’s limit', () => {
    const leads = Array.from({ length: MAX_LEADS_PER_IMPORT * 2 + 1 }, (_, i) => i);
    expect(chunk(leads).map((part) => part.length)).toEqual([MAX_LEADS_PER_IMPORT, MAX_LEADS_PER_IMPORT, 1]);
    expect(chunk([])).toEqual([]);
  });

  it('cuts long leads into smaller calls, so that no call passes the server’s body limit', () => {
    const lead = { name: 'N'.repeat(120), email: `${'e'.repeat(240)}@example.com`, phone: null };
    const batches = chunk(Array.from({ length: 5000 }, () => lead));
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flat()).toHaveLength(5000);
    for (const batch of batches)
      expect(JSON.stringify({ leads: batch }).length).toBeLessThanOrEqual(MAX_BATCH_BYTES + 20);
  });

  it('turns the server’s leads.<i>.<field> issues into rows of the file', () => {
    const rows = [2, 3, 5, 6, 7];
    // The second call started at lead 3 (row 6): its lead 1 is row 7.
    expect(
      rowIssuesOf(
        [
          { field: 'leads.1.email', message: 'invalid' },
          { field: 'leads', message: 'too many' },
        ],
        rows,
        3,
      ),
    ).toEqual([
      { row: 7, field: 'email', message: 'invalid' },
      { row: 0, field: 'leads', message: 'too many' },
    ]);
  });

  it('writes the links CSV with a header, empty cells for none, and formulas defused', () => {
    const created = [
      {
        lead: { name: 'Ana', email: 'ana@example.com', phone: null },
        url: 'https://x.test/p/1',
        token: 't1',
      },
      {
        lead: { name: '=HYPERLINK("x")', email: null, phone: '+52 1' },
        url: 'https://x.test/p/2',
        token: 't2',
      },
      { lead: { name: '+cmd|x', email: '-1+1@x.test', phone: null }, url: 'https://x.test/p/3', token: 't3' },
    ] as unknown as LeadCreated[];
    const text = linksCsv(created);
    const rows = Papa.parse<string[]>(text.trim()).data;
    expect(rows).toEqual([
      ['name', 'email', 'phone', 'url'],
      ['Ana', 'ana@example.com', '', 'https://x.test/p/1'],
      ['\'=HYPERLINK("x")', '', '+52 1', 'https://x.test/p/2'],
      ["'+cmd|x", "'-1+1@x.test", '', 'https://x.test/p/3'],
    ]);
  });
});
