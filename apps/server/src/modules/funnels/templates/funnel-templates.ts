import type { FunnelCreate, FunnelTemplateId, PageCreate } from '@embudo/contracts';

/** A ready-made funnel: its settings and pages, in order. */
export interface FunnelTemplatePlan {
  funnel: FunnelCreate;
  pages: PageCreate[];
}

const VIDEO = { hostingVideo: 'SELF_HOSTED', videoUrl: '/assets/demo/vsl.mp4' } as const;
const WHATSAPP = 'https://wa.me/5215512345678?text=Hola%2C%20quiero%20m%C3%A1s%20informaci%C3%B3n';

/** The demo's VSL launch: two classes whose videos open the next, then the offer. */
const VSL_LAUNCH: FunnelTemplatePlan = {
  funnel: { name: 'Lanzamiento VSL', typeFunnel: 'VSL', language: 'es', isPreLaunch: false },
  pages: [
    {
      buttonAction: 'NEXT-PAGE',
      headline: 'Clase 1: <strong>el método</strong> que cambia tus ventas',
      subheadline: 'Mira el video completo: el botón aparece al final.',
      showSubHeadLine: true,
      buttonCopy: 'Ver la clase 2',
      buttonTime: { hours: 0, minutes: 0, seconds: 8 },
      ...VIDEO,
    },
    {
      buttonAction: 'NEXT-PAGE',
      headline: 'Clase 2: los <em>tres errores</em> que frenan tu embudo',
      subheadline: 'La clase final se abre al terminar este video.',
      showSubHeadLine: true,
      buttonCopy: 'Ver la clase final',
      buttonTime: { hours: 0, minutes: 0, seconds: 8 },
      ...VIDEO,
    },
    {
      buttonAction: 'OFFERT',
      headline: 'Clase final: <strong>la oferta</strong> de lanzamiento',
      subheadline: 'Plazas limitadas. El precio sube cuando termine el contador.',
      showSubHeadLine: true,
      buttonCopy: '<strong>¡Quiero mi plaza!</strong>',
      buttonUrl: 'https://checkout.example.com/embudo-demo',
      buttonTime: { hours: 0, minutes: 0, seconds: 5 },
      showFakeProgress: true,
      ...VIDEO,
    },
  ],
};

/** The demo's WhatsApp landing: one page whose button opens a WhatsApp chat. */
const WHATSAPP_LANDING: FunnelTemplatePlan = {
  funnel: { name: 'WhatsApp landing', typeFunnel: 'LPI', language: 'es' },
  pages: [
    {
      layout: 'landing',
      buttonAction: 'LPI-REDIRECT-WPP',
      topline: 'Grupo privado y gratuito',
      showTopLine: true,
      headline: 'Únete al grupo de <strong>WhatsApp</strong> del lanzamiento',
      subheadline: 'Recibe las clases y el aviso de apertura antes que nadie.',
      showSubHeadLine: true,
      buttonCopy: 'Entrar al grupo',
      buttonUrl: WHATSAPP,
    },
  ],
};

/** Every template by its id: the demo seed and the owner API's templates read the same plans. */
export const FUNNEL_TEMPLATE_PLANS: Record<FunnelTemplateId, FunnelTemplatePlan> = {
  'vsl-launch': VSL_LAUNCH,
  'whatsapp-landing': WHATSAPP_LANDING,
};
