import { TIMING } from '@embudo/contracts/runtime';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CATALOGS } from '../i18n/catalog';
import { I18nProvider } from '../i18n/I18nProvider';
import { BlockedWindowModal } from './BlockedWindowModal';
import { InactivityModal } from './InactivityModal';
import { NextVideoOverlay } from './NextVideoOverlay';
import { VideoErrorPanel } from '../video/VideoErrorPanel';
import {
  NEXT_VIDEO_SCHEDULE,
  firstValue,
  nextVideoSchedule,
  runNextVideoSchedule,
} from './next-video-schedule';

const noop = () => undefined;
const render = (language: string, node: ReactNode): string =>
  renderToString(
    <I18nProvider language={language} catalogs={CATALOGS}>
      {node}
    </I18nProvider>,
  );

/** The texts of the rendered HTML, one per element that holds text, entities decoded. */
const texts = (html: string): string[] =>
  html
    .split(/<[^>]*>/)
    .map((part) =>
      part
        .replaceAll('&#x27;', "'")
        .replaceAll('&quot;', '"')
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&')
        .trim(),
    )
    .filter((part) => part !== '');

const attribute = (html: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`).exec(html)?.[1];

/** The id of the element whose text is `text`. */
const idOf = (html: string, text: string): string | undefined =>
  new RegExp(`\\sid="([^"]*)"[^>]*>${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}<`).exec(html)?.[1];

describe('InactivityModal', () => {
  it.each([
    [
      'es',
      [
        '¿Sigues ahí?',
        'Este contenido está próximo a ser retirado.',
        'Te sugerimos aprovechar y verlo en este momento.',
        'Continuar',
      ],
    ],
    [
      'en',
      [
        'Are you still there?',
        'This content is about to be taken down.',
        'We suggest you make the most of it and watch it right now.',
        'Continue',
      ],
    ],
  ])('open, in %s: title, two lines and the button', (language, expected) => {
    const html = render(language, <InactivityModal open onContinue={noop} />);
    expect(texts(html)).toEqual(expected);
    expect(html).toContain('<button type="button"');
  });

  it('is an accessible modal dialog labelled by its title', () => {
    const html = render('es', <InactivityModal open onContinue={noop} />);
    expect(attribute(html, 'role')).toBe('dialog');
    expect(attribute(html, 'aria-modal')).toBe('true');
    const titleId = idOf(html, '¿Sigues ahí?');
    expect(titleId).toBeTruthy();
    expect(attribute(html, 'aria-labelledby')).toBe(titleId);
  });

  it.each(['es', 'en'])('closed, in %s: renders nothing', (language) => {
    expect(render(language, <InactivityModal open={false} onContinue={noop} />)).toBe('');
  });
});

describe('BlockedWindowModal', () => {
  const url = 'https://wa.me/5215555555555?text=Hola%20Embudo&source=lp';

  it.each([
    [
      'es',
      [
        'Ventana bloqueada',
        'No se pudo abrir la ventana automáticamente. ¿Deseas continuar al enlace?',
        'Cancelar',
        'Continuar',
      ],
    ],
    [
      'en',
      [
        'Window blocked',
        'The window could not be opened automatically. Do you want to continue to the link?',
        'Cancel',
        'Continue',
      ],
    ],
  ])('open, in %s: title, body, Cancel and Continue', (language, expected) => {
    const html = render(language, <BlockedWindowModal open url={url} onCancel={noop} onContinue={noop} />);
    expect(texts(html)).toEqual(expected);
  });

  it('is a labelled modal dialog whose Continue is a new-tab link to the url', () => {
    const html = render('es', <BlockedWindowModal open url={url} onCancel={noop} onContinue={noop} />);
    expect(attribute(html, 'role')).toBe('dialog');
    expect(attribute(html, 'aria-modal')).toBe('true');
    expect(attribute(html, 'aria-labelledby')).toBe(idOf(html, 'Ventana bloqueada'));
    const link = /<a [^>]*>Continuar<\/a>/.exec(html)?.[0] ?? '';
    expect(attribute(link, 'href')?.replaceAll('&amp;', '&')).toBe(url);
    expect(attribute(link, 'target')).toBe('_blank');
    expect(attribute(link, 'rel')).toBe('noopener noreferrer');
  });

  it.each(['es', 'en'])('closed, in %s: renders nothing', (language) => {
    expect(
      render(language, <BlockedWindowModal open={false} url={url} onCancel={noop} onContinue={noop} />),
    ).toBe('');
  });
});

describe('VideoErrorPanel', () => {
  it.each([
    ['es', ['Error al cargar video', 'Refresca la página']],
    ['en', ['Error loading video', 'Refresh the page']],
  ])('in %s: the message and the reload button', (language, expected) => {
    const html = render(language, <VideoErrorPanel />);
    expect(texts(html)).toEqual(expected);
    expect(html).toMatch(/<button type="button"[^>]*>[^<]+<\/button>/);
  });
});

describe('NextVideoOverlay', () => {
  it.each([
    ['es', ['Siguiente video en...', '3']],
    ['en', ['Next video in...', '3']],
  ])('visible, in %s: spinner, caption and the first number', (language, expected) => {
    const html = render(language, <NextVideoOverlay visible onDone={noop} />);
    expect(texts(html)).toEqual(expected);
    expect(html).toContain('class="spinner"');
    expect(html).toContain('class="next-video-overlay"');
  });

  it.each(['es', 'en'])('hidden, in %s: renders nothing', (language) => {
    expect(render(language, <NextVideoOverlay visible={false} onDone={noop} />)).toBe('');
  });
});

describe('nextVideoSchedule', () => {
  it('counts 3, 2, 1, 0 every 500 ms, holds 500 ms at 0, then is done', () => {
    expect(nextVideoSchedule(500, 3)).toEqual([
      { at: 0, value: 3 },
      { at: 500, value: 2 },
      { at: 1000, value: 1 },
      { at: 1500, value: 0 },
      { at: 2000, done: true },
    ]);
  });

  it('is what the overlay uses, from the spec constants', () => {
    expect(TIMING.nextVideoStep).toBe(500);
    expect(TIMING.nextVideoSteps).toBe(3);
    expect(NEXT_VIDEO_SCHEDULE).toEqual(nextVideoSchedule(500, 3));
    expect(firstValue(NEXT_VIDEO_SCHEDULE)).toBe(3);
  });

  it('follows its parameters', () => {
    expect(nextVideoSchedule(100, 1)).toEqual([
      { at: 0, value: 1 },
      { at: 100, value: 0 },
      { at: 200, done: true },
    ]);
    expect(nextVideoSchedule(250, 0)).toEqual([
      { at: 0, value: 0 },
      { at: 250, done: true },
    ]);
  });

  it('rejects nonsense', () => {
    expect(() => nextVideoSchedule(-1, 3)).toThrow(RangeError);
    expect(() => nextVideoSchedule(Number.NaN, 3)).toThrow(RangeError);
    expect(() => nextVideoSchedule(500, -1)).toThrow(RangeError);
    expect(() => nextVideoSchedule(500, 1.5)).toThrow(RangeError);
  });
});

describe('runNextVideoSchedule (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const start = () => {
    const values: number[] = [];
    const onDone = vi.fn();
    const cancel = runNextVideoSchedule(NEXT_VIDEO_SCHEDULE, {
      onValue: (value) => values.push(value),
      onDone,
    });
    return { values, onDone, cancel };
  };

  it('calls nothing synchronously', () => {
    const { values, onDone } = start();
    expect(values).toEqual([]);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('shows each number on time and calls onDone once, at 2000 ms', () => {
    const { values, onDone } = start();
    vi.advanceTimersByTime(0);
    expect(values).toEqual([3]);
    vi.advanceTimersByTime(499);
    expect(values).toEqual([3]);
    vi.advanceTimersByTime(1);
    expect(values).toEqual([3, 2]);
    vi.advanceTimersByTime(500);
    expect(values).toEqual([3, 2, 1]);
    vi.advanceTimersByTime(500);
    expect(values).toEqual([3, 2, 1, 0]);
    vi.advanceTimersByTime(499);
    expect(onDone).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onDone).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(values).toEqual([3, 2, 1, 0]);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cancel stops what has not fired yet', () => {
    const { values, onDone, cancel } = start();
    vi.advanceTimersByTime(700);
    cancel();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(values).toEqual([3, 2]);
    expect(onDone).not.toHaveBeenCalled();
  });

  it('cancel after the end is harmless', () => {
    const { onDone, cancel } = start();
    vi.runAllTimers();
    cancel();
    expect(onDone).toHaveBeenCalledTimes(1);
  });
});
