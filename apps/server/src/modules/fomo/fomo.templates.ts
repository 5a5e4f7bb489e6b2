import type { FomoSite, Language } from '@embudo/contracts';

/** Social-proof sentences per page type and language; the page fills {name} and shows the place. */
export const FOMO_TEMPLATES: Record<Language, Record<FomoSite, string>> = {
  es: {
    LPI: '{name} se unió al grupo',
    VIDEO: '{name} está viendo esta clase',
    OFFERT: '{name} acaba de comprar',
  },
  pt: {
    LPI: '{name} entrou no grupo',
    VIDEO: '{name} está assistindo esta aula',
    OFFERT: '{name} acabou de comprar',
  },
  en: {
    LPI: '{name} joined the group',
    VIDEO: '{name} is watching this class',
    OFFERT: '{name} just bought',
  },
};
