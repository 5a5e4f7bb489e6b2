import { legalDocument } from './legal-texts';
import type { LegalKind, LegalLanguage } from './legal-texts';

export interface LegalPageProps {
  kind: LegalKind;
  language: LegalLanguage;
  /** The funnel's host, e.g. "promo.example.com": named wherever the text names the site. */
  domain: string;
  /** The contact address: the account's own, else the operator's; null when neither is set. */
  email: string | null;
}

/**
 * Terms and Conditions or Privacy Policy (visitor-behaviour §2.2, §9), opened in a new tab from the footer link
 * (`?page=terms` or `?page=privacy`). A pure function of its props, with no state or effects, so the
 * server's HTML and the hydrated tree are the same. The privacy page carries the DB-IP attribution
 * that the location data's licence asks for (decision 0008).
 */
export function LegalPage({ kind, language, domain, email }: LegalPageProps) {
  const doc = legalDocument(kind, language, { domain, email });
  return (
    <main className="legal-page" lang={language}>
      <h1>{doc.title}</h1>
      <p className="legal-updated">{doc.updated}</p>
      {doc.sections.map((section) => (
        <section key={section.title} className="legal-section">
          <h2>{section.title}</h2>
          {section.paragraphs.map((paragraph, index) => (
            <p key={index}>{paragraph}</p>
          ))}
        </section>
      ))}
      {kind === 'privacy' && (
        <footer className="legal-attribution">
          <p>
            <a href="https://db-ip.com" rel="noopener">
              IP Geolocation by DB-IP
            </a>
          </p>
        </footer>
      )}
    </main>
  );
}
