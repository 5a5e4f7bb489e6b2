import type { FollowUp } from '@embudo/contracts';
import Papa from 'papaparse';

/** A cell a spreadsheet would run as a formula (a phone number such as +52 55 1234 5678 is left as it is). */
const FORMULA = /^(?:[=@\t\r]|[+-](?![\d ()-]*$))/;

/**
 * The follow-up list as the owner downloads it: one row per lead and page, furthest first, the page
 * by its number in the funnel (1 is the first).
 */
export function followUpsCsv(rows: readonly FollowUp[]): string {
  return Papa.unparse(
    {
      fields: [
        'name',
        'email',
        'phone',
        'page',
        'furthest_second',
        'reached_percent',
        'seconds_played',
        'past_button',
        'converted',
        'last_played_on',
        'lead_id',
      ],
      data: rows.map((row) => [
        row.lead.name,
        row.lead.email ?? '',
        row.lead.phone ?? '',
        row.position + 1,
        row.furthestSecond,
        row.reachedShare === null ? '' : Math.round(row.reachedShare * 1000) / 10,
        row.secondsPlayed,
        row.pastButton ? 'yes' : 'no',
        row.converted ? 'yes' : 'no',
        row.lastPlayedOn,
        row.lead.id,
      ]),
    },
    { escapeFormulae: FORMULA, newline: '\r\n' },
  );
}
