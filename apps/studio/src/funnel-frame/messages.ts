import { defineMessages } from '../i18n/i18n';

/** The frame of every screen of one funnel: back to the list, its sections, a viewer's notice. */
export const funnelFrameMessages = defineMessages({
  es: {
    back: 'Todos los embudos',
    funnelSections: 'Secciones del embudo',
    pages: 'Páginas',
    leads: 'Leads',
    analytics: 'Analítica',
    settings: 'Configuración',
    readOnly: 'Tu rol solo permite ver este embudo.',
  },
  pt: {
    back: 'Todos os funis',
    funnelSections: 'Seções do funil',
    pages: 'Páginas',
    leads: 'Leads',
    analytics: 'Análises',
    settings: 'Configurações',
    readOnly: 'Seu papel só permite ver este funil.',
  },
  en: {
    back: 'All funnels',
    funnelSections: 'Funnel sections',
    pages: 'Pages',
    leads: 'Leads',
    analytics: 'Analytics',
    settings: 'Settings',
    readOnly: 'Your role may only view this funnel.',
  },
});
