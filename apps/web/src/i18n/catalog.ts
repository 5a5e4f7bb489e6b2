/**
 * Visitor-visible texts (visitor-behaviour §2, §4.8, §8, §9) in the three page languages.
 *
 * The Spanish catalogue is the reference: its keys define `MessageKey`, and `pt` and `en` are typed
 * so that a missing or an extra key is a compile error (and `i18n.test.tsx` checks it again at
 * runtime). Placeholders are written `{name}` and filled by `translate()`.
 *
 * The browser bundle holds none of them: the server inlines the page's catalogue in the page state,
 * and this module is a chunk of its own, loaded only if the page changes language in the browser.
 */

import type { Language } from './languages';

export { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages';

export const es = {
  'common.loading': 'Cargando…',
  'error.showPage': 'Error al mostrar la página',

  'notFound.title': '¡Página no encontrada! 404',
  'notFound.description': 'La página que buscas no está disponible.',

  'invalidLink.title': 'Hmmmm... No conozco a {name}, ¡parece falso!',
  'invalidLink.description':
    'Algo no está bien aquí. Te sugiero acceder con los enlaces exactamente como te los proporcionamos.',

  'expired.title': '¡Perdiste el avión!',
  'expired.subtitle': 'Tu beneficio ha expirado...',
  'expired.description': 'Por eso te dije que entraras rápido al contenido del entrenamiento.',

  'nextVideo.caption': 'Siguiente video en...',

  'inactivity.title': '¿Sigues ahí?',
  'inactivity.line1': 'Este contenido está próximo a ser retirado.',
  'inactivity.line2': 'Te sugerimos aprovechar y verlo en este momento.',
  'inactivity.continue': 'Continuar',

  'blockedWindow.title': 'Ventana bloqueada',
  'blockedWindow.body': 'No se pudo abrir la ventana automáticamente. ¿Deseas continuar al enlace?',
  'blockedWindow.cancel': 'Cancelar',
  'blockedWindow.continue': 'Continuar',

  'videoError.title': 'Error al cargar video',
  'videoError.refresh': 'Refresca la página',
  'video.loading': 'Cargando el video',

  'preview.badge': 'Modo previsualización',
  'preview.previous': 'Página anterior',
  'preview.next': 'Siguiente página',

  'greeting.default': 'Oye',

  'footer.notAffiliated':
    'Este sitio no forma parte del sitio web de Facebook ni de Meta Platforms, Inc. Además, este sitio NO está respaldado por Facebook de ninguna manera. FACEBOOK es una marca registrada de Meta Platforms, Inc.',
  'footer.chatNotice':
    'Al hacer clic en el botón, iniciarás una conversación en WhatsApp. Los mensajes son enviados por la empresa, no por WhatsApp. Puedes dejar de recibir mensajes en cualquier momento escribiendo STOP.',
  'footer.terms': 'Términos y condiciones',
  'footer.privacy': 'Política de privacidad',

  'countdown.title': 'Esta oferta termina en',
  'countdown.days': 'días',
  'countdown.hours': 'horas',
  'countdown.minutes': 'minutos',
  'countdown.seconds': 'segundos',
  'countdown.expired': 'La oferta terminó',

  'fakeUsers.online': '{count} personas viendo ahora',

  'fomo.minutesAgo': 'hace {n} minutos',
  'fomo.oneMinuteAgo': 'hace 1 minuto',

  'progress.label': '{percent}% completado',

  'button.loading': 'Un momento…',
} as const;

export type MessageKey = keyof typeof es;
export type Catalog = Readonly<Record<MessageKey, string>>;
/** The catalogues at hand, by language. */
export type Catalogs = Partial<Readonly<Record<Language, Catalog>>>;

export const pt: Catalog = {
  'common.loading': 'Carregando…',
  'error.showPage': 'Erro ao exibir a página',

  'notFound.title': 'Página não encontrada! 404',
  'notFound.description': 'A página que você está procurando não está disponível.',

  'invalidLink.title': 'Hmmmm... Não conheço {name}, parece falso!',
  'invalidLink.description':
    'Algo não está certo aqui. Sugiro acessar com os links exatamente como nós os fornecemos.',

  'expired.title': 'Você perdeu o avião!',
  'expired.subtitle': 'Seu benefício expirou...',
  'expired.description': 'Por isso eu te disse para entrar rápido no conteúdo do treinamento.',

  'nextVideo.caption': 'Próximo vídeo em...',

  'inactivity.title': 'Você ainda está aí?',
  'inactivity.line1': 'Este conteúdo está prestes a ser retirado.',
  'inactivity.line2': 'Sugerimos aproveitar e assisti-lo agora mesmo.',
  'inactivity.continue': 'Continuar',

  'blockedWindow.title': 'Janela bloqueada',
  'blockedWindow.body': 'Não foi possível abrir a janela automaticamente. Deseja continuar para o link?',
  'blockedWindow.cancel': 'Cancelar',
  'blockedWindow.continue': 'Continuar',

  'videoError.title': 'Erro ao carregar o vídeo',
  'videoError.refresh': 'Atualize a página',
  'video.loading': 'Carregando o vídeo',

  'preview.badge': 'Modo de pré-visualização',
  'preview.previous': 'Página anterior',
  'preview.next': 'Próxima página',

  'greeting.default': 'Ei',

  'footer.notAffiliated':
    'Este site não faz parte do site do Facebook nem da Meta Platforms, Inc. Além disso, este site NÃO é endossado pelo Facebook de forma alguma. FACEBOOK é uma marca registrada da Meta Platforms, Inc.',
  'footer.chatNotice':
    'Ao clicar no botão, você iniciará uma conversa no WhatsApp. As mensagens são enviadas pela empresa, não pelo WhatsApp. Você pode deixar de receber mensagens a qualquer momento escrevendo PARAR.',
  'footer.terms': 'Termos e condições',
  'footer.privacy': 'Política de privacidade',

  'countdown.title': 'Esta oferta termina em',
  'countdown.days': 'dias',
  'countdown.hours': 'horas',
  'countdown.minutes': 'minutos',
  'countdown.seconds': 'segundos',
  'countdown.expired': 'A oferta terminou',

  'fakeUsers.online': '{count} pessoas assistindo agora',

  'fomo.minutesAgo': 'há {n} minutos',
  'fomo.oneMinuteAgo': 'há 1 minuto',

  'progress.label': '{percent}% concluído',

  'button.loading': 'Um momento…',
};

export const en: Catalog = {
  'common.loading': 'Loading…',
  'error.showPage': 'Error displaying the page',

  'notFound.title': 'Page not found! 404',
  'notFound.description': 'The page you are looking for is not available.',

  'invalidLink.title': "Hmmmm... I don't know {name}, it looks fake!",
  'invalidLink.description':
    "Something's not right here. I suggest accessing with the links exactly as we provided them.",

  'expired.title': 'You missed the plane!',
  'expired.subtitle': 'Your benefit has expired...',
  'expired.description': "That's why I told you to come in quickly to the training content.",

  'nextVideo.caption': 'Next video in...',

  'inactivity.title': 'Are you still there?',
  'inactivity.line1': 'This content is about to be taken down.',
  'inactivity.line2': 'We suggest you make the most of it and watch it right now.',
  'inactivity.continue': 'Continue',

  'blockedWindow.title': 'Window blocked',
  'blockedWindow.body': 'The window could not be opened automatically. Do you want to continue to the link?',
  'blockedWindow.cancel': 'Cancel',
  'blockedWindow.continue': 'Continue',

  'videoError.title': 'Error loading video',
  'videoError.refresh': 'Refresh the page',
  'video.loading': 'Loading the video',

  'preview.badge': 'Preview mode',
  'preview.previous': 'Previous page',
  'preview.next': 'Next page',

  'greeting.default': 'Hey',

  'footer.notAffiliated':
    'This site is not a part of the Facebook website or Meta Platforms, Inc. Additionally, this site is NOT endorsed by Facebook in any way. FACEBOOK is a trademark of Meta Platforms, Inc.',
  'footer.chatNotice':
    'By clicking the button, you will start a conversation on WhatsApp. Messages are sent by the business, not by WhatsApp. You can stop receiving messages at any time by writing STOP.',
  'footer.terms': 'Terms and conditions',
  'footer.privacy': 'Privacy policy',

  'countdown.title': 'This offer ends in',
  'countdown.days': 'days',
  'countdown.hours': 'hours',
  'countdown.minutes': 'minutes',
  'countdown.seconds': 'seconds',
  'countdown.expired': 'The offer has ended',

  'fakeUsers.online': '{count} people watching now',

  'fomo.minutesAgo': '{n} minutes ago',
  'fomo.oneMinuteAgo': '1 minute ago',

  'progress.label': '{percent}% complete',

  'button.loading': 'One moment…',
};

export const CATALOGS: Readonly<Record<Language, Catalog>> = { es, pt, en };
