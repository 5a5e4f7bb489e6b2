import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LegalPage } from './LegalPage';
import { legalDocument, type LegalDocument, type LegalKind, type LegalLanguage } from './legal-texts';

const LANGUAGES: readonly LegalLanguage[] = ['es', 'pt', 'en'];
const KINDS: readonly LegalKind[] = ['terms', 'privacy'];
const SECTION_COUNT: Record<LegalKind, number> = { terms: 10, privacy: 12 };
const CASES = KINDS.flatMap((kind) => LANGUAGES.map((language) => [kind, language] as const));

const vars = { domain: 'promo.example.com', email: 'privacidad@embudo.example' };

const strings = (doc: LegalDocument): string[] => [
  doc.title,
  doc.updated,
  ...doc.sections.flatMap((section) => [section.title, ...section.paragraphs]),
];
const fullText = (doc: LegalDocument): string => strings(doc).join('\n');

/** What each text must state, in its own language (visitor-behaviour §9). */
const REQUIRED: Record<LegalLanguage, Record<string, (string | RegExp)[]>> = {
  es: {
    updated: ['mayo de 2025'],
    'no payment processing': ['El proveedor no procesa pagos'],
    'cloud provider and SSL/TLS': ['proveedor de servicios en la nube', 'SSL/TLS'],
    'United States jurisdiction': ['leyes de los Estados Unidos', 'tribunales'],
    'chat opt-out': [/escrib\w* STOP/],
  },
  pt: {
    updated: ['maio de 2025'],
    'no payment processing': ['O provedor não processa pagamentos'],
    'cloud provider and SSL/TLS': ['provedor de nuvem', 'SSL/TLS'],
    'United States jurisdiction': ['leis dos Estados Unidos', 'tribunais'],
    'chat opt-out': [/escrev\w* PARAR \(ou STOP\)/],
  },
  en: {
    updated: ['May 2025'],
    'no payment processing': ['The provider does not process payments'],
    'cloud provider and SSL/TLS': ['cloud provider', 'SSL/TLS'],
    'United States jurisdiction': ['laws of the United States', 'courts'],
    'chat opt-out': [/writ\w* STOP/],
  },
};

const UPDATED: Record<LegalLanguage, string> = {
  es: 'Última actualización: mayo de 2025',
  pt: 'Última atualização: maio de 2025',
  en: 'Last updated: May 2025',
};

describe('legalDocument', () => {
  it.each(CASES)('%s (%s) has exactly the spec’s number of sections', (kind, language) => {
    expect(legalDocument(kind, language, vars).sections).toHaveLength(SECTION_COUNT[kind]);
  });

  it.each(CASES)('%s (%s): every section has a title and a non-empty paragraph', (kind, language) => {
    const doc = legalDocument(kind, language, vars);
    expect(doc.title.trim()).not.toBe('');
    for (const section of doc.sections) {
      expect(section.title.trim(), section.title).not.toBe('');
      expect(section.paragraphs.length, section.title).toBeGreaterThan(0);
      for (const paragraph of section.paragraphs) expect(paragraph.trim(), section.title).not.toBe('');
    }
  });

  it.each(CASES)('%s (%s) is dated May 2025 in its language', (kind, language) => {
    expect(legalDocument(kind, language, vars).updated).toBe(UPDATED[language]);
  });

  it.each(CASES)('%s (%s) fills in the domain and the contact address everywhere', (kind, language) => {
    const text = fullText(legalDocument(kind, language, vars));
    expect(text).not.toContain('{domain}');
    expect(text).not.toContain('{email}');
    expect(text).not.toMatch(/\{\w+\}/);
    expect(text).toContain(vars.domain);
    expect(text).toContain(vars.email);
  });

  it.each(CASES)(
    '%s (%s) without any contact address names who to write to, never an empty address',
    (kind, language) => {
      const doc = legalDocument(kind, language, { domain: vars.domain, email: null });
      const paragraphs = doc.sections.flatMap((section) => section.paragraphs);
      const contact = paragraphs.filter((p) => /(escrib\w* a|escrev\w* para|writ\w* to) /i.test(p));
      expect(contact.length).toBeGreaterThan(0);
      for (const paragraph of contact) {
        // "escribe a ." was what a page with no address showed.
        expect(paragraph).not.toMatch(/(escrib\w* a|escrev\w* para|writ\w* to)\s*[.,;]/i);
        expect(paragraph).not.toMatch(/\bnull\b|undefined|\{email\}/);
      }
      expect(paragraphs.join(' ')).toContain(
        {
          es: 'quien te envió este enlace',
          pt: 'quem enviou este link para você',
          en: 'whoever sent you this link',
        }[language],
      );
    },
  );

  it.each(CASES)('%s (%s) states what visitor-behaviour §9 requires, in its language', (kind, language) => {
    const text = fullText(legalDocument(kind, language, vars));
    for (const [claim, needles] of Object.entries(REQUIRED[language])) {
      for (const needle of needles) {
        if (typeof needle === 'string') expect(text, claim).toContain(needle);
        else expect(text, claim).toMatch(needle);
      }
    }
  });

  it.each(CASES)('%s (%s) is plain text (no markup)', (kind, language) => {
    for (const text of strings(legalDocument(kind, language, vars))) expect(text).not.toMatch(/[<>]/);
  });

  it.each(KINDS)('%s: es, pt and en have the same paragraphs per section (complete translations)', (kind) => {
    const shape = (language: LegalLanguage) =>
      legalDocument(kind, language, vars).sections.map((section) => section.paragraphs.length);
    expect(shape('pt')).toEqual(shape('es'));
    expect(shape('en')).toEqual(shape('es'));
  });

  it.each(KINDS)('%s names the site and the contact in the same sections in every language', (kind) => {
    const mentions = (language: LegalLanguage) =>
      legalDocument(kind, language, { domain: 'SITE.test', email: 'CONTACT@test' }).sections.map(
        (section) => {
          const text = section.paragraphs.join('\n');
          return [text.split('SITE.test').length - 1, text.split('CONTACT@test').length - 1];
        },
      );
    expect(mentions('pt')).toEqual(mentions('es'));
    expect(mentions('en')).toEqual(mentions('es'));
  });

  it('the languages are real translations, not copies', () => {
    for (const kind of KINDS) {
      const [es, pt, en] = LANGUAGES.map((language) => legalDocument(kind, language, vars));
      expect(es?.title).not.toBe(pt?.title);
      expect(es?.title).not.toBe(en?.title);
      expect(pt?.sections[0]?.paragraphs[0]).not.toBe(en?.sections[0]?.paragraphs[0]);
    }
  });

  it('fills each placeholder once, even when a value looks like a placeholder', () => {
    const doc = legalDocument('terms', 'en', { domain: '{email}.example.com', email: 'a$&b@example.com' });
    const text = fullText(doc);
    expect(text).toContain('{email}.example.com');
    expect(text).toContain('a$&b@example.com');
  });

  it('returns a fresh copy, so a caller cannot change the stored text', () => {
    const first = legalDocument('privacy', 'es', vars);
    first.sections[0]?.paragraphs.splice(0);
    expect(legalDocument('privacy', 'es', vars).sections[0]?.paragraphs.length).toBeGreaterThan(0);
  });
});

describe('<LegalPage>', () => {
  const render = (kind: LegalKind, language: LegalLanguage) =>
    renderToString(<LegalPage kind={kind} language={language} domain={vars.domain} email={vars.email} />);

  it.each(CASES)('%s (%s) renders the title, the date, every section and the domain', (kind, language) => {
    const html = render(kind, language);
    const doc = legalDocument(kind, language, vars);
    expect(html).toMatch(/^<main class="legal-page" lang="\w\w">/);
    expect(html).toContain(`lang="${language}"`);
    expect(html).toContain(`<h1>${doc.title}</h1>`);
    expect(html).toContain(UPDATED[language]);
    expect(html.match(/<h2>/g) ?? []).toHaveLength(SECTION_COUNT[kind]);
    expect(html.match(/<section /g) ?? []).toHaveLength(SECTION_COUNT[kind]);
    expect(html).toContain(vars.domain);
    expect(html).toContain(vars.email);
    expect(html).not.toContain('style=');
  });

  it.each(LANGUAGES)('privacy (%s) carries the DB-IP attribution link', (language) => {
    expect(render('privacy', language)).toContain(
      '<a href="https://db-ip.com" rel="noopener">IP Geolocation by DB-IP</a>',
    );
  });

  it.each(LANGUAGES)('terms (%s) does not', (language) => {
    expect(render('terms', language)).not.toContain('https://db-ip.com');
  });

  it('renders the same markup every time (nothing depends on the browser or the clock)', () => {
    for (const [kind, language] of CASES) expect(render(kind, language)).toBe(render(kind, language));
  });
});
