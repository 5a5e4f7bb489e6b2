import { defineMessages } from '../i18n/i18n';

export const funnelsMessages = defineMessages({
  es: {
    title: 'Embudos',
    description: 'Tus embudos de venta: páginas, leads y su configuración.',
    emptyTitle: 'Aquí verás tus embudos',
    emptyText: 'La gestión de embudos llega en la próxima versión del Studio.',
  },
  pt: {
    title: 'Funis',
    description: 'Seus funis de venda: páginas, leads e configurações.',
    emptyTitle: 'Aqui você verá seus funis',
    emptyText: 'A gestão de funis chega na próxima versão do Studio.',
  },
  en: {
    title: 'Funnels',
    description: 'Your sales funnels: their pages, leads and settings.',
    emptyTitle: 'Your funnels will show here',
    emptyText: 'Managing funnels arrives in the next version of the Studio.',
  },
});
