// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { closePage, fieldLabelled, json, open, page, serve } from '../app/test-page';

/** What a viewer sees of the funnels: everything, changeable nothing; in the browser's language. */

const ACCOUNT_ID = '11111111-1111-4111-8111-111111111111';
const FUNNEL_ID = '22222222-2222-4222-8222-222222222222';
const PAGE_ID = '55555555-5555-4555-8555-555555555555';
const SESSION = {
  user: { id: '33333333-3333-4333-8333-333333333333', email: 'vera@acme.com', name: 'Vera', language: null },
  memberships: [{ account: { id: ACCOUNT_ID, slug: 'acme', name: 'Acme' }, role: 'viewer' }],
  currentAccountId: ACCOUNT_ID,
  role: 'viewer',
};
const FUNNEL = {
  id: FUNNEL_ID,
  name: 'Lançamento',
  typeFunnel: 'LPI',
  language: 'pt',
  deadline: { mode: 'afterLeadCreated', hours: 72 },
  isDeadlineExceptionOn: false,
  isPreLaunch: false,
  isFakeUserOnlineOn: false,
  fakeUserRange: [20, 100],
  isFomoOn: false,
  fomo: {
    lpi: { fomoApplied: false },
    video: { fomoApplied: false },
    offert: { fomoApplied: false },
    intervalSeconds: 20,
    position: 'left',
    source: 'both',
    messages: [],
  },
  expiredPage: { title: '', subtitle: '', description: '', highlight: '', bgImageUrl: null },
  pixel: { pixelId: null, hasAccessToken: false, testEventCode: null },
  pageCount: 1,
  leadCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const PAGE = {
  id: PAGE_ID,
  funnelId: FUNNEL_ID,
  position: 0,
  layout: 'landing',
  buttonAction: 'LPI-REDIRECT-WPP',
  topline: '',
  headline: '<p>Entre no <strong>grupo</strong></p>',
  subheadline: '',
  showTopLine: false,
  showHeadLine: true,
  showSubHeadLine: false,
  topLineColor: '#ffffff',
  headlineColor: '#ffffff',
  subHeadlineColor: '#d4d4d8',
  buttonCopy: 'Entrar',
  buttonBgColor: '#16a34a',
  buttonTextColor: '#ffffff',
  buttonTime: { hours: 0, minutes: 2, seconds: 5 },
  buttonUrl: 'https://wa.me/5511999999999',
  isLpiOn: true,
  showFakeProgress: false,
  barProgressPercent: 80,
  barProgressTextColor: '#ffffff',
  bgImageUrl: null,
  hostingVideo: null,
  videoId: null,
  videoLibrary: null,
  videoUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function serveViewer() {
  serve((method, path) => {
    if (method !== 'GET') return undefined;
    if (path === '/api/auth/session') return json(SESSION);
    if (path === '/api/owner/funnels') return json([FUNNEL]);
    if (path === `/api/owner/funnels/${FUNNEL_ID}`) return json(FUNNEL);
    if (path === `/api/owner/funnels/${FUNNEL_ID}/pages`) return json([PAGE]);
    if (path === `/api/owner/pages/${PAGE_ID}`) return json(PAGE);
    return undefined;
  });
}

const buttons = () => [...page().querySelectorAll('button')].map((b) => b.textContent.trim());
const text = () => page().textContent;

afterEach(closePage);

describe('a viewer', () => {
  it('sees the funnels with their type, language and counts, in Portuguese, and no way to change them', async () => {
    serveViewer();
    await open('/studio/funnels', ['pt-BR']);
    await expect.poll(text).toContain('Lançamento');
    expect(text()).toContain('Landing de WhatsApp');
    expect(text()).toContain('Português');
    expect(text()).toContain('1 página');
    expect(text()).toContain('1 lead');
    expect(buttons()).not.toContain('Novo funil');
    expect(buttons()).not.toContain('Renomear');
    expect(buttons()).not.toContain('Excluir');
  });

  it('sees the pages in order with their headline as text, and a page form it cannot change', async () => {
    serveViewer();
    await open(`/studio/funnels/${FUNNEL_ID}/pages`, ['pt-BR']);
    await expect.poll(text).toContain('Entre no grupo');
    expect(text()).toContain('Botão aos 2:05');
    expect(text()).toContain('Seu papel só permite ver este funil.');
    expect(buttons()).not.toContain('Adicionar página');
    expect(buttons().some((label) => label.startsWith('Duplicar'))).toBe(false);
    expect(buttons()).not.toContain('Pré-visualizar');

    closePage();
    serveViewer();
    await open(`/studio/funnels/${FUNNEL_ID}/pages/${PAGE_ID}`, ['pt-BR']);
    await expect.poll(() => fieldLabelled('Link do botão').value).toBe('https://wa.me/5511999999999');
    expect(fieldLabelled('Segundos').value).toBe('5');
    expect(fieldLabelled('Link do botão').closest('fieldset')?.disabled).toBe(true);
    expect(buttons()).not.toContain('Salvar página');
    expect(buttons()).not.toContain('Pré-visualizar');
  });
});
