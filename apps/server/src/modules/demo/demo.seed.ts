import type { Account, ButtonAction, FunnelCreate, PageCreate } from '@embudo/contracts';
import { API_KEY_PREFIX, deriveToken } from '../../lib/tokens';
import { FUNNEL_TEMPLATE_PLANS } from '../funnels/templates/funnel-templates';
import type { Services } from '../../services';

export interface DemoFunnel {
  id: string;
  name: string;
  pages: { id: string; position: number; buttonAction: ButtonAction }[];
  leads: { name: string; token: string; url: string }[];
  previewUrl: string;
}

export interface DemoAccount {
  accountSlug: string;
  apiKey: string;
  funnels: DemoFunnel[];
}

export interface DemoSummary extends DemoAccount {
  baseUrl: string;
  /** Other seeded accounts (enigma, with the green WhatsApp button of architecture §5.12). */
  otherAccounts: DemoAccount[];
}

interface FunnelPlan {
  funnel: FunnelCreate;
  pages: PageCreate[];
  leads: string[];
}

const VSL_FUNNEL: FunnelPlan = { ...FUNNEL_TEMPLATE_PLANS['vsl-launch'], leads: ['Ana', 'Bruno', 'Carla'] };

const LPI_FUNNEL: FunnelPlan = { ...FUNNEL_TEMPLATE_PLANS['whatsapp-landing'], leads: ['Diego', 'Elena'] };

/** The demo accounts' contact address for their legal pages. */
export const DEMO_CONTACT_EMAIL = 'hola@demo.example.com';

const ACCOUNTS: { slug: string; name: string; settings?: Account['settings']; funnels: FunnelPlan[] }[] = [
  {
    slug: 'demo',
    name: 'Demo',
    // The legal pages name an address to write to (example.com is reserved for examples: RFC 2606).
    settings: { lpiButtonBgColor: null, contactEmail: DEMO_CONTACT_EMAIL, timeZone: 'America/Mexico_City' },
    funnels: [VSL_FUNNEL, LPI_FUNNEL],
  },
  {
    slug: 'enigma',
    name: 'Enigma',
    settings: {
      lpiButtonBgColor: '#25d366',
      contactEmail: DEMO_CONTACT_EMAIL,
      timeZone: 'America/Sao_Paulo',
    },
    funnels: [
      { ...LPI_FUNNEL, funnel: { ...LPI_FUNNEL.funnel, name: 'Enigma WhatsApp' }, leads: ['Fernanda'] },
    ],
  },
];

/**
 * Seeds the demo accounts. Idempotent: tokens and keys are derived from the instance secret, and each
 * account, funnel, lead and preview link is created only when missing, so running it again prints the
 * same links and adds nothing.
 */
export async function seedDemo(services: Services, baseUrl: string): Promise<DemoSummary> {
  const seeded: DemoAccount[] = [];
  for (const plan of ACCOUNTS) seeded.push(await seedAccount(services, plan));
  const [demo, ...otherAccounts] = seeded;
  if (!demo) throw new Error('demo account missing');
  return { baseUrl, ...demo, otherAccounts };
}

async function seedAccount(services: Services, plan: (typeof ACCOUNTS)[number]): Promise<DemoAccount> {
  const { secret } = services;
  const apiKey = deriveToken(secret, `demo:${plan.slug}:api-key`, API_KEY_PREFIX);
  let account = await services.accounts.findBySlug(plan.slug);
  if (!account) {
    await services.accounts.create({ slug: plan.slug, name: plan.name, settings: plan.settings }, { apiKey });
    account = await services.accounts.findBySlug(plan.slug);
  } else {
    await services.accounts.addApiKey(account.id, apiKey, 'demo');
  }
  if (!account) throw new Error(`could not create the ${plan.slug} account`);
  const funnels: DemoFunnel[] = [];
  for (const funnelPlan of plan.funnels) funnels.push(await seedFunnel(services, account, funnelPlan));
  return { accountSlug: account.slug, apiKey, funnels };
}

async function seedFunnel(services: Services, account: Account, plan: FunnelPlan): Promise<DemoFunnel> {
  const { secret } = services;
  let funnelRow = await services.funnels.findByName(account, plan.funnel.name);
  if (!funnelRow) {
    const funnel = await services.funnels.create(account, plan.funnel);
    for (const page of plan.pages) await services.pages.create(account, funnel.id, page);
    funnelRow = await services.funnels.findByName(account, plan.funnel.name);
  }
  if (!funnelRow) throw new Error(`could not create the funnel ${plan.funnel.name}`);
  const funnelId = funnelRow.id;
  const pages = await services.pages.list(account, funnelId);

  const wanted = plan.leads.map((name, i) => ({
    name,
    token: deriveToken(secret, `demo:${account.slug}:${plan.funnel.name}:lead:${i}`),
  }));
  const existing = await services.leads.existing(wanted.map((l) => l.token));
  const missing = wanted.filter((l) => !existing.has(l.token));
  if (missing.length > 0) await services.leads.import(account, funnelId, missing);

  const first = pages[0];
  const previewUrl = first
    ? (
        await services.previews.create(account, first.id, {
          token: deriveToken(secret, `demo:preview:${first.id}`),
        })
      ).url
    : '';
  return {
    id: funnelId,
    name: funnelRow.name,
    pages: pages.map((p) => ({ id: p.id, position: p.position, buttonAction: p.buttonAction })),
    leads: wanted.map((l) => ({ ...l, url: services.links.leadUrl(account.slug, l.token) })),
    previewUrl,
  };
}
