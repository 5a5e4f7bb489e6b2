import type { Language as ContractLanguage } from '@embudo/contracts';
import { renderToString } from 'react-dom/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { CATALOGS, LANGUAGES, en, es, pt, type Language, type MessageKey } from './catalog';
import { I18nProvider, useLanguage, useT } from './I18nProvider';
import { preferredLanguage } from './languages';
import { resolveLanguage, translate } from './translate';

const placeholders = (text: string): string[] =>
  [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
const referenceKeys = Object.keys(es).sort();

describe('catalogues', () => {
  it('use the same language codes as the contracts', () => {
    expectTypeOf<Language>().toEqualTypeOf<ContractLanguage>();
    expect(Object.keys(CATALOGS).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each([
    ['pt', pt],
    ['en', en],
  ] as const)('%s has exactly the keys of es', (_language, catalog) => {
    expect(Object.keys(catalog).sort()).toEqual(referenceKeys);
  });

  it.each(LANGUAGES)('%s has a non-empty text for every key', (language) => {
    for (const [key, text] of Object.entries(CATALOGS[language])) {
      expect(typeof text, key).toBe('string');
      expect(text.trim(), key).not.toBe('');
    }
  });

  it.each(LANGUAGES)('%s uses the same {placeholders} as es for every key', (language) => {
    for (const key of referenceKeys as MessageKey[]) {
      expect(placeholders(CATALOGS[language][key]), key).toEqual(placeholders(es[key]));
    }
  });
});

describe('spec texts (in the language the spec gives them)', () => {
  it.each([
    ['es', 'common.loading', 'Cargando…'],
    ['es', 'error.showPage', 'Error al mostrar la página'],
    ['en', 'notFound.title', 'Page not found! 404'],
    ['en', 'notFound.description', 'The page you are looking for is not available.'],
    ['en', 'invalidLink.title', "Hmmmm... I don't know {name}, it looks fake!"],
    [
      'en',
      'invalidLink.description',
      "Something's not right here. I suggest accessing with the links exactly as we provided them.",
    ],
    ['en', 'expired.title', 'You missed the plane!'],
    ['en', 'expired.subtitle', 'Your benefit has expired...'],
    ['en', 'expired.description', "That's why I told you to come in quickly to the training content."],
    ['en', 'nextVideo.caption', 'Next video in...'],
    ['es', 'nextVideo.caption', 'Siguiente video en...'],
    ['pt', 'nextVideo.caption', 'Próximo vídeo em...'],
    ['es', 'inactivity.title', '¿Sigues ahí?'],
    ['es', 'inactivity.line1', 'Este contenido está próximo a ser retirado.'],
    ['es', 'inactivity.line2', 'Te sugerimos aprovechar y verlo en este momento.'],
    ['es', 'inactivity.continue', 'Continuar'],
    ['es', 'blockedWindow.title', 'Ventana bloqueada'],
    ['es', 'blockedWindow.body', 'No se pudo abrir la ventana automáticamente. ¿Deseas continuar al enlace?'],
    ['es', 'blockedWindow.cancel', 'Cancelar'],
    ['es', 'blockedWindow.continue', 'Continuar'],
    ['es', 'videoError.title', 'Error al cargar video'],
    ['es', 'videoError.refresh', 'Refresca la página'],
    ['es', 'preview.badge', 'Modo previsualización'],
    ['es', 'preview.previous', 'Página anterior'],
    ['es', 'preview.next', 'Siguiente página'],
    ['es', 'greeting.default', 'Oye'],
    ['en', 'greeting.default', 'Hey'],
    ['pt', 'greeting.default', 'Ei'],
    ['es', 'footer.terms', 'Términos y condiciones'],
    ['es', 'footer.privacy', 'Política de privacidad'],
    ['es', 'fomo.minutesAgo', 'hace {n} minutos'],
    ['en', 'fomo.minutesAgo', '{n} minutes ago'],
    ['pt', 'fomo.minutesAgo', 'há {n} minutos'],
    ['es', 'fomo.oneMinuteAgo', 'hace 1 minuto'],
  ] satisfies [Language, MessageKey, string][])('%s %s', (language, key, text) => {
    expect(CATALOGS[language][key]).toBe(text);
  });

  it('opt-out word is STOP, PARAR in pt (visitor-behaviour §9)', () => {
    expect(es['footer.chatNotice']).toContain('STOP');
    expect(en['footer.chatNotice']).toContain('STOP');
    expect(pt['footer.chatNotice']).toContain('PARAR');
  });
});

describe('resolveLanguage', () => {
  it.each([
    ['es', 'es'],
    ['pt', 'pt'],
    ['en', 'en'],
    ['EN', 'en'],
    [' Pt ', 'pt'],
    ['pt-BR', 'pt'],
    ['en_US', 'en'],
    ['fr', 'es'],
    ['', 'es'],
    [null, 'es'],
    [undefined, 'es'],
  ] as const)('%j → %s', (value, language) => {
    expect(resolveLanguage(value)).toBe(language);
  });
});

describe('preferredLanguage (Accept-Language)', () => {
  it.each([
    ['pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7', 'pt'],
    ['en-US,en;q=0.9', 'en'],
    ['es-419,es;q=0.9', 'es'],
    // The first supported language in the browser's order, skipping unsupported ones.
    ['de-DE,de;q=0.9,en;q=0.8,pt;q=0.7', 'en'],
    // q-values rank, whatever the order.
    ['en;q=0.5, pt;q=0.8', 'pt'],
    ['EN-gb', 'en'],
    ['fr, en;q=0', 'es'],
    ['*', 'es'],
    ['', 'es'],
    [undefined, 'es'],
  ] as const)('%j → %s', (header, language) => {
    expect(preferredLanguage(header)).toBe(language);
  });
});

describe('translate', () => {
  it('falls back to es for an unknown or empty language', () => {
    expect(translate('de', 'inactivity.title')).toBe('¿Sigues ahí?');
    expect(translate('', 'inactivity.title')).toBe('¿Sigues ahí?');
    expect(translate(null, 'inactivity.title')).toBe('¿Sigues ahí?');
    expect(translate(undefined, 'inactivity.title')).toBe('¿Sigues ahí?');
  });

  it('lower-cases the language', () => {
    expect(translate('EN', 'notFound.title')).toBe('Page not found! 404');
    expect(translate('PT', 'greeting.default')).toBe('Ei');
  });

  it('replaces every {var}, numbers included', () => {
    expect(translate('en', 'invalidLink.title', { name: 'Ana' })).toBe(
      "Hmmmm... I don't know Ana, it looks fake!",
    );
    expect(translate('pt', 'fomo.minutesAgo', { n: 7 })).toBe('há 7 minutos');
    expect(translate('es', 'progress.label', { percent: 0 })).toBe('0% completado');
    expect(translate('es', 'fakeUsers.online', { count: 42 })).toBe('42 personas viendo ahora');
  });

  it('leaves a placeholder without a value untouched', () => {
    expect(translate('en', 'invalidLink.title')).toBe("Hmmmm... I don't know {name}, it looks fake!");
    expect(translate('en', 'invalidLink.title', { other: 'x' })).toBe(
      "Hmmmm... I don't know {name}, it looks fake!",
    );
    expect(translate('es', 'fomo.minutesAgo', { toString: 'x' })).toBe('hace {n} minutos');
  });

  it('does not re-expand values that look like placeholders', () => {
    expect(translate('en', 'invalidLink.title', { name: '{name}' })).toBe(
      "Hmmmm... I don't know {name}, it looks fake!",
    );
  });

  it('never throws for an unknown key from untyped callers', () => {
    expect(translate('en', 'nope.missing' as MessageKey)).toBe('nope.missing');
    expect(translate('en', 'toString' as MessageKey)).toBe('toString');
  });
});

describe('I18nProvider', () => {
  function Probe() {
    const t = useT();
    return (
      <p lang={useLanguage()}>
        {t('nextVideo.caption')} {t('fomo.minutesAgo', { n: 3 })}
      </p>
    );
  }

  it('renders texts in the provider language on the server', () => {
    const html = renderToString(
      <I18nProvider language="pt" catalogs={CATALOGS}>
        <Probe />
      </I18nProvider>,
    );
    expect(html).toBe('<p lang="pt">Próximo vídeo em...<!-- --> <!-- -->há 3 minutos</p>');
  });

  it('resolves the language given to the provider', () => {
    const html = renderToString(
      <I18nProvider language="EN" catalogs={CATALOGS}>
        <Probe />
      </I18nProvider>,
    );
    expect(html).toContain('Next video in...');
    expect(html).toContain('lang="en"');
  });

  it('renders with the one catalogue the browser has (the page inlines it)', () => {
    const html = renderToString(
      <I18nProvider language="en" catalogs={{ en }}>
        <Probe />
      </I18nProvider>,
    );
    expect(html).toBe('<p lang="en">Next video in...<!-- --> <!-- -->3 minutes ago</p>');
  });

  it("shows the texts at hand while the language's own catalogue is missing", () => {
    const html = renderToString(
      <I18nProvider language="pt" catalogs={{ es }}>
        <Probe />
      </I18nProvider>,
    );
    expect(html).toBe('<p lang="pt">Siguiente video en...<!-- --> <!-- -->hace 3 minutos</p>');
  });

  it('says es outside a provider, and shows keys without a catalogue (never throws)', () => {
    expect(renderToString(<Probe />)).toContain('lang="es"');
    expect(renderToString(<Probe />)).toContain('nextVideo.caption');
  });
});
