/**
 * Terms and Conditions and Privacy Policy of a funnel site (visitor-behaviour §2.2, §9), written for what Embudo
 * does: pages of a business (the "owner") hosted by the Embudo operator (the "provider").
 *
 * Plain text only: no markup, so the page renders them as text and nothing needs sanitising. `{domain}`
 * (the funnel's host) and `{email}` (the provider's contact address) are filled by `legalDocument()`.
 * Every `{email}` follows "write to" in its language, so that without an address a noun phrase
 * (NO_ADDRESS) stands in its place and the sentence still reads, never "write to ." .
 * Each language has the same sections with the same number of paragraphs (`legal.test.tsx` checks it).
 * The DB-IP attribution link (decision 0008) is not text: `LegalPage` renders it on the privacy page.
 */

export type LegalKind = 'terms' | 'privacy';
export type LegalLanguage = 'es' | 'pt' | 'en';

export interface LegalSection {
  title: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  updated: string;
  sections: LegalSection[];
}

export interface LegalVars {
  domain: string;
  /** The provider's contact address; null when the operator has set none (see NO_ADDRESS). */
  email: string | null;
}

const terms: Record<LegalLanguage, LegalDocument> = {
  es: {
    title: 'Términos y Condiciones',
    updated: 'Última actualización: mayo de 2025',
    sections: [
      {
        title: '1. Sobre este sitio',
        paragraphs: [
          '{domain} es una página de ventas publicada por un negocio independiente (el «propietario») para presentar sus propios productos, servicios o contenidos. La página está alojada en la plataforma Embudo, operada por un proveedor de servicios (el «proveedor», «nosotros») que aporta la tecnología y no vende nada en este sitio.',
          'Al abrir o usar las páginas de {domain} aceptas estos términos. El tratamiento de tus datos personales se explica en la Política de Privacidad de {domain}. Si no estás de acuerdo, no uses el sitio.',
        ],
      },
      {
        title: '2. Tu enlace personal',
        paragraphs: [
          'Llegas a este sitio mediante un enlace creado para ti. El enlace lleva un código que te identifica ante el propietario, y la página puede saludarte con el nombre que el propietario registró para ti.',
          'No compartas el enlace. Quien lo abra verá la página como si fuera tú, y sus visitas quedarán registradas como tuyas. Si crees que otra persona está usando tu enlace, escribe a {email}.',
        ],
      },
      {
        title: '3. Contenido y ofertas',
        paragraphs: [
          'El propietario redacta y elige todo lo que muestra la página: textos, videos, ofertas, precios, promesas y plazos. Solo él responde por ese contenido y por entregar lo que ofrece. El proveedor no lo revisa, no lo respalda ni lo garantiza.',
          'Algunos elementos, como cuentas regresivas, contadores de espectadores, barras de progreso o avisos de compras recientes, los configura el propietario y pueden ser ilustrativos en lugar de cifras en tiempo real. No tomes una decisión basándote solo en ellos.',
          'Este sitio no forma parte de ninguna red social ni de la empresa dueña de ella, y no está patrocinado ni respaldado por ellas.',
        ],
      },
      {
        title: '4. Compras y pagos',
        paragraphs: [
          'El proveedor no procesa pagos. En {domain} no se vende ni se cobra nada, y nunca recibimos los datos de tu tarjeta o de tu cuenta bancaria.',
          'Si decides comprar, el botón de la oferta te lleva a una página de pago (checkout) gestionada por el propietario o por una empresa de pagos que él eligió. La compra, su precio, la entrega, las garantías y los reembolsos son un asunto entre tú y el propietario, según las condiciones de esa página de pago.',
        ],
      },
      {
        title: '5. Mensajes de chat',
        paragraphs: [
          'Algunas páginas tienen un botón que abre una conversación con el propietario en una aplicación de chat como WhatsApp. Abrirla es tu decisión. La conversación ocurre en esa aplicación, entre tú y el propietario; el proveedor no envía esos mensajes ni los lee.',
          'Si ya no quieres recibir mensajes del propietario, escribe STOP en el chat y el propietario deberá dejar de enviarlos. También puedes pedirlo escribiendo a {email}.',
        ],
      },
      {
        title: '6. Uso aceptable',
        paragraphs: [
          'Usa el sitio solo para ver el contenido del propietario para tu uso personal. No intentes adivinar ni abrir enlaces de otras personas, copiar el sitio con herramientas automáticas, sobrecargarlo, enviar visitas o eventos falsos ni eludir su seguridad.',
          'Podemos bloquear los dispositivos o las direcciones que incumplan estas reglas.',
        ],
      },
      {
        title: '7. Disponibilidad y alojamiento',
        paragraphs: [
          'El sitio está alojado en los servidores de un proveedor de servicios en la nube, y toda conexión con él viaja cifrada con SSL/TLS. Trabajamos para que esté disponible y sea rápido, pero no prometemos que esté siempre en línea ni libre de errores.',
          'Las páginas y las ofertas pueden cambiar, vencer o retirarse en cualquier momento, por decisión del propietario o cuando se cumple un plazo. Una vez vencida una página, es posible que su contenido ya no esté disponible.',
        ],
      },
      {
        title: '8. Limitación de responsabilidad',
        paragraphs: [
          'El sitio se ofrece «tal cual». En la medida en que la ley lo permita, el proveedor no responde por el contenido, los productos, los servicios, los pagos ni los mensajes del propietario, ni por pérdidas indirectas causadas por el uso del sitio o por no poder usarlo.',
          'Nada en estos términos te quita los derechos irrenunciables que te otorga la ley de tu país.',
        ],
      },
      {
        title: '9. Ley aplicable y jurisdicción',
        paragraphs: [
          'Estos términos se rigen por las leyes de los Estados Unidos. Cualquier disputa con el proveedor sobre el uso de {domain} se resolverá ante los tribunales competentes de los Estados Unidos, salvo que una norma obligatoria de tu país disponga otra cosa.',
        ],
      },
      {
        title: '10. Cambios y contacto',
        paragraphs: [
          'Podemos actualizar estos términos cuando cambie el servicio. La fecha del inicio indica la versión vigente, y la versión publicada aquí es la que se aplica a tu visita.',
          'Si tienes preguntas sobre estos términos, escribe a {email}. Las preguntas sobre una oferta, una compra o una entrega deben dirigirse al propietario.',
        ],
      },
    ],
  },

  pt: {
    title: 'Termos e Condições',
    updated: 'Última atualização: maio de 2025',
    sections: [
      {
        title: '1. Sobre este site',
        paragraphs: [
          '{domain} é uma página de vendas publicada por um negócio independente (o “proprietário”) para apresentar seus próprios produtos, serviços ou conteúdos. A página é hospedada na plataforma Embudo, operada por um prestador de serviços (o “provedor”, “nós”) que fornece a tecnologia e não vende nada neste site.',
          'Ao abrir ou usar as páginas de {domain}, você aceita estes termos. O tratamento dos seus dados pessoais é explicado na Política de Privacidade de {domain}. Se não concordar, não use o site.',
        ],
      },
      {
        title: '2. Seu link pessoal',
        paragraphs: [
          'Você chega a este site por um link criado para você. O link traz um código que identifica você para o proprietário, e a página pode chamar você pelo nome que o proprietário cadastrou.',
          'Não compartilhe o link. Quem o abrir verá a página como se fosse você, e as visitas dessa pessoa serão registradas como suas. Se achar que outra pessoa está usando seu link, escreva para {email}.',
        ],
      },
      {
        title: '3. Conteúdo e ofertas',
        paragraphs: [
          'O proprietário escreve e escolhe tudo o que a página mostra: textos, vídeos, ofertas, preços, promessas e prazos. Só ele responde por esse conteúdo e pela entrega do que oferece. O provedor não o revisa, não o endossa nem o garante.',
          'Alguns elementos, como contagens regressivas, contadores de espectadores, barras de progresso ou avisos de compras recentes, são configurados pelo proprietário e podem ser ilustrativos, e não números em tempo real. Não tome uma decisão com base apenas neles.',
          'Este site não faz parte de nenhuma rede social nem da empresa dona dela, e não é patrocinado nem endossado por elas.',
        ],
      },
      {
        title: '4. Compras e pagamentos',
        paragraphs: [
          'O provedor não processa pagamentos. Em {domain} nada é vendido nem cobrado, e nunca recebemos os dados do seu cartão ou da sua conta bancária.',
          'Se você decidir comprar, o botão da oferta leva a um checkout gerenciado pelo proprietário ou por uma empresa de pagamentos escolhida por ele. A compra, o preço, a entrega, as garantias e os reembolsos são assunto entre você e o proprietário, nas condições desse checkout.',
        ],
      },
      {
        title: '5. Mensagens de chat',
        paragraphs: [
          'Algumas páginas têm um botão que abre uma conversa com o proprietário em um aplicativo de chat como o WhatsApp. Abri-la é uma escolha sua. A conversa acontece nesse aplicativo, entre você e o proprietário; o provedor não envia essas mensagens nem as lê.',
          'Se não quiser mais receber mensagens do proprietário, escreva PARAR (ou STOP) no chat, e o proprietário deverá deixar de enviá-las. Você também pode pedir isso escrevendo para {email}.',
        ],
      },
      {
        title: '6. Uso aceitável',
        paragraphs: [
          'Use o site apenas para ver o conteúdo do proprietário para uso pessoal. Não tente adivinhar nem abrir links de outras pessoas, copiar o site com ferramentas automáticas, sobrecarregá-lo, enviar visitas ou eventos falsos nem contornar sua segurança.',
          'Podemos bloquear dispositivos ou endereços que descumpram estas regras.',
        ],
      },
      {
        title: '7. Disponibilidade e hospedagem',
        paragraphs: [
          'O site é hospedado nos servidores de um provedor de nuvem, e toda conexão com ele é criptografada em trânsito com SSL/TLS. Trabalhamos para que ele esteja disponível e rápido, mas não prometemos que estará sempre no ar ou livre de erros.',
          'As páginas e as ofertas podem mudar, expirar ou ser retiradas a qualquer momento, por decisão do proprietário ou quando um prazo termina. Depois que uma página expira, seu conteúdo pode não estar mais disponível.',
        ],
      },
      {
        title: '8. Limitação de responsabilidade',
        paragraphs: [
          'O site é oferecido “no estado em que se encontra”. Na medida permitida por lei, o provedor não responde pelo conteúdo, pelos produtos, serviços, pagamentos ou mensagens do proprietário, nem por perdas indiretas causadas pelo uso do site ou pela impossibilidade de usá-lo.',
          'Nada nestes termos retira os direitos irrenunciáveis que a lei do seu país garante a você.',
        ],
      },
      {
        title: '9. Lei aplicável e foro',
        paragraphs: [
          'Estes termos são regidos pelas leis dos Estados Unidos. Qualquer disputa com o provedor sobre o uso de {domain} será resolvida pelos tribunais competentes dos Estados Unidos, salvo se uma norma obrigatória do seu país dispuser de outra forma.',
        ],
      },
      {
        title: '10. Alterações e contato',
        paragraphs: [
          'Podemos atualizar estes termos quando o serviço mudar. A data no início indica a versão vigente, e a versão publicada aqui é a que se aplica à sua visita.',
          'Para dúvidas sobre estes termos, escreva para {email}. Dúvidas sobre uma oferta, uma compra ou uma entrega devem ser enviadas ao proprietário.',
        ],
      },
    ],
  },

  en: {
    title: 'Terms and Conditions',
    updated: 'Last updated: May 2025',
    sections: [
      {
        title: '1. About this site',
        paragraphs: [
          '{domain} is a sales page published by an independent business (the “owner”) to present its own products, services or content. The page is hosted on the Embudo platform, run by a service provider (the “provider”, “we”) that supplies the technology and sells nothing on this site.',
          'By opening or using the pages of {domain} you accept these terms. How your personal data is handled is explained in the Privacy Policy of {domain}. If you do not agree, please do not use the site.',
        ],
      },
      {
        title: '2. Your personal link',
        paragraphs: [
          'You reach this site through a link made for you. The link carries a code that identifies you to the owner, and the page may greet you by the name the owner registered for you.',
          'Keep the link to yourself. Anyone who opens it sees the page as if they were you, and their visits are recorded as yours. If you think someone else is using your link, write to {email}.',
        ],
      },
      {
        title: '3. Content and offers',
        paragraphs: [
          'The owner writes and chooses everything the page shows: texts, videos, offers, prices, promises and deadlines. The owner alone is responsible for them and for delivering what it offers. The provider does not review, endorse or guarantee them.',
          'Some elements, such as countdowns, viewer counts, progress bars or notices of recent purchases, are set up by the owner and may be illustrative rather than live figures. Do not base a decision on them alone.',
          'This site is not part of, nor sponsored or endorsed by, any social network or the company that owns it.',
        ],
      },
      {
        title: '4. Purchases and payments',
        paragraphs: [
          'The provider does not process payments. Nothing is sold or charged on {domain}, and we never receive your card or bank details.',
          'If you decide to buy, the offer button takes you to a checkout run by the owner or by a payment company the owner chose. The purchase, its price, delivery, guarantees and refunds are between you and the owner, under the terms of that checkout.',
        ],
      },
      {
        title: '5. Chat messages',
        paragraphs: [
          'Some pages have a button that opens a conversation with the owner in a chat application such as WhatsApp. Opening it is your choice. The conversation takes place in that application, between you and the owner; the provider neither sends those messages nor reads them.',
          'If you no longer want the owner’s messages, write STOP in the chat and the owner must stop sending them. You can also ask for this by writing to {email}.',
        ],
      },
      {
        title: '6. Acceptable use',
        paragraphs: [
          'Use the site only to view the owner’s content for your personal use. Do not try to guess or open other people’s links, copy the site with automated tools, overload it, send fake visits or events, or get around its security.',
          'We may block devices or addresses that break these rules.',
        ],
      },
      {
        title: '7. Availability and hosting',
        paragraphs: [
          'The site is hosted on the servers of a cloud provider, and every connection to it is encrypted in transit with SSL/TLS. We work to keep it available and fast, but we do not promise that it will always be online or free of errors.',
          'Pages and offers can change, expire or be withdrawn at any time, by the owner’s decision or when a deadline passes. Once a page has expired, its content may no longer be available.',
        ],
      },
      {
        title: '8. Limitation of liability',
        paragraphs: [
          'The site is provided “as is”. As far as the law allows, the provider is not liable for the owner’s content, products, services, payments or messages, nor for indirect losses caused by using the site or by not being able to use it.',
          'Nothing in these terms takes away rights that the law of your country gives you and that cannot be waived.',
        ],
      },
      {
        title: '9. Governing law and jurisdiction',
        paragraphs: [
          'These terms are governed by the laws of the United States. Any dispute with the provider about the use of {domain} will be decided by the competent courts of the United States, unless a mandatory rule of your country provides otherwise.',
        ],
      },
      {
        title: '10. Changes and contact',
        paragraphs: [
          'We may update these terms when the service changes. The date at the top shows the current version, and the version published here is the one that applies to your visit.',
          'For questions about these terms, write to {email}. Questions about an offer, a purchase or a delivery should go to the owner.',
        ],
      },
    ],
  },
};

const privacy: Record<LegalLanguage, LegalDocument> = {
  es: {
    title: 'Política de Privacidad',
    updated: 'Última actualización: mayo de 2025',
    sections: [
      {
        title: '1. Quiénes somos',
        paragraphs: [
          'Esta política explica cómo se tratan los datos personales cuando visitas {domain}. El sitio pertenece a un negocio independiente (el «propietario»), que decide qué muestra la página y para qué se usan los datos. Funciona sobre la plataforma Embudo, operada por un proveedor de servicios (el «proveedor», «nosotros») que aloja la página y registra las visitas por cuenta del propietario.',
          'Para cualquier pregunta o solicitud sobre tus datos, escribe a {email}.',
        ],
      },
      {
        title: '2. Datos que recopilamos',
        paragraphs: [
          'El nombre y el código personal que contiene el enlace que abriste, tal como los registró el propietario.',
          'Datos de tu dispositivo y navegador: navegador y sistema operativo con sus versiones, tamaño de pantalla y de ventana, idioma, tipo de conexión, la página desde la que llegaste, un identificador aleatorio del dispositivo, una huella técnica (fingerprint) calculada a partir de estos datos y cuántas veces has visitado el sitio.',
          'Tu dirección IP y la ubicación aproximada que se deduce de ella: ciudad, región y país.',
          'Lo que haces en la página: cuándo llegas y cuándo te vas, cuánto del video ves y dónde lo pausas o adelantas, tus clics en sus botones y si elegiste abrir un chat con el propietario.',
          'No te pedimos contraseñas, datos de pago ni tu ubicación exacta, y no vemos el contenido de tus chats.',
        ],
      },
      {
        title: '3. Para qué los usamos',
        paragraphs: [
          'Para mostrarte la página que te corresponde, en tu idioma, con tu nombre y el tiempo que te queda, y para que puedas retomar el video donde lo dejaste.',
          'Para mostrar el botón de la oferta en el momento adecuado y llevarte al siguiente paso que preparó el propietario.',
          'Para dar al propietario estadísticas de visitas, reproducciones y clics, y para avisar a su plataforma de publicidad de que hubo una conversión, de modo que pueda medir sus anuncios.',
          'Para mantener el sitio seguro y detectar abusos, como el tráfico automático o falso.',
        ],
      },
      {
        title: '4. Ubicación aproximada',
        paragraphs: [
          'Estimamos tu ciudad, región y país a partir de tu dirección IP en nuestros propios servidores, con la base de datos DB-IP Lite (db-ip.com). No se consulta ningún servicio de ubicación externo y nunca se usa el GPS de tu dispositivo.',
          'La ubicación forma parte de los datos de la visita que ve el propietario. Tu navegador la guarda durante 24 horas para no consultarla de nuevo en cada visita.',
        ],
      },
      {
        title: '5. Cookies y almacenamiento local',
        paragraphs: [
          'No usamos cookies publicitarias. Para funcionar, la página guarda unos pocos datos en el almacenamiento de tu navegador:',
          'Un contador de visitas, que indica si es tu primera visita o si vuelves. Se conserva hasta que borres los datos de tu navegador.',
          'Un identificador de dispositivo, un código aleatorio que empieza por «device_» y nos permite reconocer el mismo navegador entre visitas. Se conserva hasta que borres los datos de tu navegador.',
          'La ubicación aproximada, que se guarda durante 24 horas.',
          'Un identificador de sesión para cada pestaña del navegador, que se borra al cerrar la pestaña.',
          'El reproductor de video proviene de la plataforma de video que eligió el propietario, que puede usar sus propias cookies según su propia política de privacidad.',
        ],
      },
      {
        title: '6. Quién recibe tus datos',
        paragraphs: [
          'El propietario, que ve tus visitas, reproducciones, clics y los datos indicados arriba, y los usa bajo su propia responsabilidad.',
          'La plataforma de publicidad del propietario (por ejemplo, Meta), cuando el propietario ha conectado su píxel de anuncios. Cuando realizas ciertas acciones, como hacer clic en el botón de la oferta, nuestro servidor le envía el evento mediante la API de Conversiones de esa plataforma: el tipo de evento, la hora, la dirección de la página, tu dirección IP y el agente de usuario de tu navegador.',
          'La plataforma de video que reproduce el video y el proveedor de servicios en la nube que aloja nuestros servidores, solo en la medida en que lo necesiten para prestar su servicio.',
          'No vendemos tus datos ni los compartimos con nadie más, salvo que la ley nos obligue.',
        ],
      },
      {
        title: '7. Pagos',
        paragraphs: [
          'El proveedor no procesa pagos. En {domain} no se realiza ningún pago: las compras se completan en la página de pago (checkout) del propietario o de la empresa de pagos que él eligió, que trata tus datos de pago según su propia política de privacidad. Nunca recibimos los datos de tu tarjeta o de tu cuenta bancaria.',
        ],
      },
      {
        title: '8. Almacenamiento y seguridad',
        paragraphs: [
          'Tus datos se guardan en los servidores de un proveedor de servicios en la nube, que pueden estar fuera de tu país. Toda conexión entre tu navegador y {domain} viaja cifrada con SSL/TLS.',
          'El acceso a los datos se limita al propietario del embudo y al personal del proveedor que lo necesita para operar el servicio. Los códigos de los enlaces personales se guardan solo en forma de hash, que no permite reconstruir el enlace.',
        ],
      },
      {
        title: '9. Cuánto tiempo los conservamos',
        paragraphs: [
          'Conservamos los datos de visitas y actividad mientras el propietario mantenga el embudo y su cuenta con el proveedor, para que pueda seguir los resultados de sus campañas. Cuando el propietario los elimina, o cuando nos pides que borremos tus datos, los borramos, salvo lo que la ley nos obligue a conservar.',
          'Los datos de tu navegador duran lo indicado en la sección 5: la ubicación, 24 horas; el identificador de sesión, hasta que cierres la pestaña; y el resto, hasta que borres los datos del navegador.',
        ],
      },
      {
        title: '10. Tus derechos',
        paragraphs: [
          'Puedes pedir una copia de los datos que tenemos sobre ti, pedir que los corrijamos o los borremos, u oponerte a su uso, escribiendo a {email}. Incluye el enlace que recibiste para que podamos encontrar tus datos; podemos pedirte que confirmes que es tuyo.',
          'Como el propietario decide cómo se usan los datos, podemos trasladarle tu solicitud para que también la aplique por su parte. Puedes borrar los datos guardados en tu navegador en cualquier momento desde su configuración.',
        ],
      },
      {
        title: '11. Mensajes de chat',
        paragraphs: [
          'Si abres un chat con el propietario desde este sitio, el propietario puede enviarte mensajes sobre su oferta por esa aplicación de chat. Puedes detenerlos en cualquier momento escribiendo STOP en la conversación. El proveedor no envía esos mensajes ni lee la conversación.',
        ],
      },
      {
        title: '12. Jurisdicción y cambios',
        paragraphs: [
          'Esta política se rige por las leyes de los Estados Unidos, y los tribunales de los Estados Unidos son competentes para cualquier disputa con el proveedor sobre ella, sin perjuicio de los derechos irrenunciables que te otorga la ley de protección de datos de tu país.',
          'Podemos actualizar esta política cuando cambie el servicio; la fecha del inicio indica la versión vigente. Para cualquier pregunta, escribe a {email}.',
        ],
      },
    ],
  },

  pt: {
    title: 'Política de Privacidade',
    updated: 'Última atualização: maio de 2025',
    sections: [
      {
        title: '1. Quem somos',
        paragraphs: [
          'Esta política explica como os dados pessoais são tratados quando você visita {domain}. O site pertence a um negócio independente (o “proprietário”), que decide o que a página mostra e para que os dados são usados. Ele funciona na plataforma Embudo, operada por um prestador de serviços (o “provedor”, “nós”) que hospeda a página e registra as visitas em nome do proprietário.',
          'Para qualquer dúvida ou pedido sobre seus dados, escreva para {email}.',
        ],
      },
      {
        title: '2. Dados que coletamos',
        paragraphs: [
          'O nome e o código pessoal contidos no link que você abriu, como o proprietário os cadastrou.',
          'Dados do seu dispositivo e navegador: navegador e sistema operacional com suas versões, tamanho da tela e da janela, idioma, tipo de conexão, a página de onde você veio, um identificador aleatório do dispositivo, uma identificação técnica (fingerprint) calculada a partir desses dados e quantas vezes você visitou o site.',
          'Seu endereço IP e a localização aproximada deduzida dele: cidade, região e país.',
          'O que você faz na página: quando chega e quando sai, quanto do vídeo assiste e onde pausa ou avança, seus cliques nos botões e se escolheu abrir um chat com o proprietário.',
          'Não pedimos senhas, dados de pagamento nem sua localização exata, e não vemos o conteúdo das suas conversas.',
        ],
      },
      {
        title: '3. Para que usamos',
        paragraphs: [
          'Para mostrar a página certa para você, no seu idioma, com seu nome e o tempo que lhe resta, e para que você possa retomar o vídeo de onde parou.',
          'Para mostrar o botão da oferta no momento certo e levar você à próxima etapa preparada pelo proprietário.',
          'Para dar ao proprietário estatísticas de visitas, visualizações e cliques, e para avisar a plataforma de anúncios dele de que houve uma conversão, para que ele possa medir seus anúncios.',
          'Para manter o site seguro e detectar abusos, como tráfego automatizado ou falso.',
        ],
      },
      {
        title: '4. Localização aproximada',
        paragraphs: [
          'Estimamos sua cidade, região e país a partir do seu endereço IP em nossos próprios servidores, com a base de dados DB-IP Lite (db-ip.com). Nenhum serviço externo de localização é consultado, e o GPS do seu dispositivo nunca é usado.',
          'A localização faz parte dos dados da visita que o proprietário vê. Seu navegador a guarda por 24 horas para não consultá-la de novo a cada visita.',
        ],
      },
      {
        title: '5. Cookies e armazenamento local',
        paragraphs: [
          'Não usamos cookies de publicidade. Para funcionar, a página guarda alguns poucos dados no armazenamento do seu navegador:',
          'Um contador de visitas, que indica se esta é sua primeira visita ou um retorno. Ele fica guardado até você limpar os dados do navegador.',
          'Um identificador de dispositivo, um código aleatório que começa com “device_” e nos permite reconhecer o mesmo navegador entre visitas. Ele fica guardado até você limpar os dados do navegador.',
          'A localização aproximada, guardada por 24 horas.',
          'Um identificador de sessão para cada aba do navegador, apagado quando você fecha a aba.',
          'O player de vídeo vem da plataforma de vídeo escolhida pelo proprietário, que pode usar seus próprios cookies conforme a própria política de privacidade.',
        ],
      },
      {
        title: '6. Quem recebe seus dados',
        paragraphs: [
          'O proprietário, que vê suas visitas, visualizações, cliques e os dados listados acima, e os usa sob sua própria responsabilidade.',
          'A plataforma de anúncios do proprietário (por exemplo, a Meta), quando o proprietário conectou seu pixel de anúncios. Quando você realiza certas ações, como clicar no botão da oferta, nosso servidor envia o evento pela API de Conversões dessa plataforma: o tipo de evento, o horário, o endereço da página, seu endereço IP e o agente de usuário do seu navegador.',
          'A plataforma de vídeo que reproduz o vídeo e o provedor de nuvem que hospeda nossos servidores, apenas na medida em que precisarem para prestar seu serviço.',
          'Não vendemos seus dados nem os compartilhamos com mais ninguém, salvo quando a lei nos obrigar.',
        ],
      },
      {
        title: '7. Pagamentos',
        paragraphs: [
          'O provedor não processa pagamentos. Nenhum pagamento é feito em {domain}: as compras são concluídas no checkout do proprietário ou da empresa de pagamentos escolhida por ele, que trata seus dados de pagamento conforme a própria política de privacidade. Nunca recebemos os dados do seu cartão ou da sua conta bancária.',
        ],
      },
      {
        title: '8. Armazenamento e segurança',
        paragraphs: [
          'Seus dados são armazenados nos servidores de um provedor de nuvem, que podem estar localizados fora do seu país. Toda conexão entre o seu navegador e {domain} é criptografada em trânsito com SSL/TLS.',
          'O acesso aos dados é limitado ao proprietário do funil e à equipe do provedor que precisa dele para operar o serviço. Os códigos dos links pessoais são guardados apenas em forma de hash, que não permite reconstruir o link.',
        ],
      },
      {
        title: '9. Por quanto tempo guardamos',
        paragraphs: [
          'Guardamos os dados de visitas e atividade enquanto o proprietário mantiver o funil e sua conta com o provedor, para que ele possa acompanhar os resultados das suas campanhas. Quando o proprietário os exclui, ou quando você nos pede para apagar seus dados, nós os apagamos, exceto o que a lei nos obrigar a guardar.',
          'Os dados no seu navegador duram o que está descrito na seção 5: a localização, 24 horas; o identificador de sessão, até você fechar a aba; e o restante, até você limpar os dados do navegador.',
        ],
      },
      {
        title: '10. Seus direitos',
        paragraphs: [
          'Você pode pedir uma cópia dos dados que temos sobre você, pedir que os corrijamos ou apaguemos, ou se opor ao seu uso, escrevendo para {email}. Inclua o link que você recebeu para que possamos encontrar seus dados; podemos pedir que confirme que ele é seu.',
          'Como o proprietário decide como os dados são usados, podemos encaminhar seu pedido a ele para que também seja atendido do lado dele. Você pode apagar os dados guardados no seu navegador a qualquer momento nas configurações do navegador.',
        ],
      },
      {
        title: '11. Mensagens de chat',
        paragraphs: [
          'Se você abrir um chat com o proprietário a partir deste site, o proprietário pode enviar mensagens sobre a oferta dele por esse aplicativo de chat. Você pode interrompê-las a qualquer momento escrevendo PARAR (ou STOP) na conversa. O provedor não envia essas mensagens nem lê a conversa.',
        ],
      },
      {
        title: '12. Foro e alterações',
        paragraphs: [
          'Esta política é regida pelas leis dos Estados Unidos, e os tribunais dos Estados Unidos são competentes para qualquer disputa com o provedor sobre ela, sem prejuízo dos direitos irrenunciáveis que a lei de proteção de dados do seu país garante a você.',
          'Podemos atualizar esta política quando o serviço mudar; a data no início indica a versão vigente. Para qualquer dúvida, escreva para {email}.',
        ],
      },
    ],
  },

  en: {
    title: 'Privacy Policy',
    updated: 'Last updated: May 2025',
    sections: [
      {
        title: '1. Who we are',
        paragraphs: [
          'This policy explains how personal data is handled when you visit {domain}. The site belongs to an independent business (the “owner”), which decides what the page shows and what the data is used for. It runs on the Embudo platform, operated by a service provider (the “provider”, “we”) that hosts the page and records visits on the owner’s behalf.',
          'For any question or request about your data, write to {email}.',
        ],
      },
      {
        title: '2. Data we collect',
        paragraphs: [
          'The name and the personal code contained in the link you opened, as the owner registered them.',
          'Details of your device and browser: browser and operating system with their versions, screen and window size, language, connection type, the page you came from, a random device identifier, a technical fingerprint computed from these details, and how many times you have visited.',
          'Your IP address and the approximate location derived from it: city, region and country.',
          'What you do on the page: when you arrive and leave, how much of the video you watch and where you pause or skip, your clicks on its buttons, and whether you chose to open a chat with the owner.',
          'We do not ask for passwords, payment details or your exact location, and we do not see the content of your chats.',
        ],
      },
      {
        title: '3. Why we use it',
        paragraphs: [
          'To show you the right page, in your language, with your name and the time you have left, and to let you resume the video where you left it.',
          'To show the offer button at the right moment and take you to the next step the owner prepared.',
          'To give the owner statistics on visits, viewing and clicks, and to tell the owner’s advertising platform that a conversion took place, so that the owner can measure its ads.',
          'To keep the site secure and to detect abuse, such as automated or fake traffic.',
        ],
      },
      {
        title: '4. Approximate location',
        paragraphs: [
          'We estimate your city, region and country from your IP address on our own servers, using the DB-IP Lite database (db-ip.com). No request goes to an outside location service, and your device’s GPS is never used.',
          'The location is part of the visit details the owner sees. Your browser keeps it for 24 hours so that it is not looked up again on every visit.',
        ],
      },
      {
        title: '5. Cookies and local storage',
        paragraphs: [
          'We do not use advertising cookies. For the page to work, it keeps a few small items in your browser’s storage:',
          'A visit counter, which tells whether this is your first visit or a return. It stays until you clear your browser data.',
          'A device identifier, a random code that begins with “device_” and lets us recognise the same browser across visits. It stays until you clear your browser data.',
          'The approximate location, kept for 24 hours.',
          'A session identifier for each browser tab, deleted when you close the tab.',
          'The video player comes from the video platform the owner chose, which may set its own cookies under its own privacy policy.',
        ],
      },
      {
        title: '6. Who receives your data',
        paragraphs: [
          'The owner, who sees your visits, viewing, clicks and the details listed above, and uses them under its own responsibility.',
          'The owner’s advertising platform (for example Meta), when the owner has connected its ad pixel. When you take certain actions, such as clicking the offer button, our server sends the event through that platform’s Conversions API: the type of event, its time, the page address, your IP address and your browser’s user agent.',
          'The video platform that plays the video and the cloud provider that hosts our servers, only as far as they need it to provide their service.',
          'We do not sell your data, and we share it with no one else unless the law requires us to.',
        ],
      },
      {
        title: '7. Payments',
        paragraphs: [
          'The provider does not process payments. No payment is made on {domain}: purchases are completed on the checkout of the owner, or of a payment company the owner chose, which handles your payment details under its own privacy policy. We never receive your card or bank details.',
        ],
      },
      {
        title: '8. Storage and security',
        paragraphs: [
          'Your data is stored on the servers of a cloud provider, which may be located outside your country. Every connection between your browser and {domain} is encrypted in transit with SSL/TLS.',
          'Access to the data is limited to the owner of the funnel and to the provider’s staff who need it to run the service. The codes of personal links are stored only in hashed form, which cannot be turned back into the link.',
        ],
      },
      {
        title: '9. How long we keep it',
        paragraphs: [
          'We keep visit and activity data for as long as the owner keeps the funnel and its account with the provider, so that the owner can follow the results of its campaigns. When the owner deletes them, or when you ask us to delete your data, we delete it, except for what the law requires us to keep.',
          'The items in your browser last as described in section 5: the location for 24 hours, the session identifier until you close the tab, and the rest until you clear your browser data.',
        ],
      },
      {
        title: '10. Your rights',
        paragraphs: [
          'You can ask for a copy of the data we hold about you, ask us to correct or delete it, or object to its use, by writing to {email}. Include the link you received so that we can find your data; we may ask you to confirm that it is yours.',
          'As the owner decides how the data is used, we may pass your request on to the owner so that it is also applied on its side. You can clear the data kept in your browser at any time from your browser settings.',
        ],
      },
      {
        title: '11. Chat messages',
        paragraphs: [
          'If you open a chat with the owner from this site, the owner may send you messages about its offer through that chat application. You can stop them at any time by writing STOP in the conversation. The provider does not send these messages and does not read the conversation.',
        ],
      },
      {
        title: '12. Jurisdiction and changes',
        paragraphs: [
          'This policy is governed by the laws of the United States, and the courts of the United States have jurisdiction over any dispute with the provider about it, without prejudice to the mandatory rights that the data-protection law of your country gives you.',
          'We may update this policy when the service changes; the date at the top shows the current version. For any question, write to {email}.',
        ],
      },
    ],
  },
};

const SOURCES: Record<LegalKind, Record<LegalLanguage, LegalDocument>> = { terms, privacy };

/**
 * Who to write to when neither the account nor the operator has a contact address: the person who
 * sent the lead the link (the owner), rather than an empty or invented address.
 */
const NO_ADDRESS: Record<LegalLanguage, string> = {
  es: 'quien te envió este enlace',
  pt: 'quem enviou este link para você',
  en: 'whoever sent you this link',
};

// One pass over the text, so a domain or address that itself contains "{email}" is not filled again.
const PLACEHOLDER = /\{(domain|email)\}/g;

/**
 * The Terms and Conditions (`terms`, 10 sections) or the Privacy Policy (`privacy`, 12 sections) in
 * `language`, with `{domain}` and `{email}` replaced by `vars`. Returns a fresh copy each time.
 */
export function legalDocument(kind: LegalKind, language: LegalLanguage, vars: LegalVars): LegalDocument {
  const fill = (text: string): string =>
    text.replace(PLACEHOLDER, (_match, name: string) =>
      name === 'domain' ? vars.domain : vars.email || NO_ADDRESS[language],
    );
  const source = SOURCES[kind][language];
  return {
    title: fill(source.title),
    updated: fill(source.updated),
    sections: source.sections.map((section) => ({
      title: fill(section.title),
      paragraphs: section.paragraphs.map(fill),
    })),
  };
}
