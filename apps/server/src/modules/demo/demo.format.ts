import type { DemoSummary } from './demo.seed';

/** The demo's links as a person reads them in a terminal. */
export function formatDemoLinks(demo: DemoSummary): string[] {
  const lines = ['', `Demo account '${demo.accountSlug}', API key: ${demo.apiKey}`];
  for (const account of [demo, ...demo.otherAccounts]) {
    if (account !== demo) lines.push('', `Account '${account.accountSlug}', API key: ${account.apiKey}`);
    for (const funnel of account.funnels) {
      lines.push(`  ${funnel.name} (${funnel.pages.length} page${funnel.pages.length === 1 ? '' : 's'})`);
      for (const lead of funnel.leads) lines.push(`    ${lead.name.padEnd(10)} ${lead.url}`);
      lines.push(`    preview    ${funnel.previewUrl}`);
    }
  }
  return lines;
}
