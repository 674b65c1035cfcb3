/**
 * Decision 72: the privacy notice ('Aviso de Privacidade', /privacidade) in the driver's words, and
 * the answer of GET /api/privacidade. The record behind each sentence (what is kept, why, under which
 * legal basis, who receives it, for how long) is docs/privacy.md: a change here changes it there.
 */

/** A line of the notice; `link`: where in the portal the driver does it. */
export interface PrivacyNoticeItem {
  title: string;
  text: string;
  link?: { to: string; label: string };
}

export interface PrivacyNoticeSection {
  /** The heading's id: /privacidade#<id> opens the notice at it. */
  id: string;
  heading: string;
  intro?: string;
  items: readonly PrivacyNoticeItem[];
  outro?: string;
}

export const privacyMessages = {
  /** GET /api/privacidade's Mensagem. */
  loaded: 'Encarregado pelos dados pessoais',
} as const;

/** The links to the notice from the login, the registration and Configurações (apart: the login's chunk stays small). */
export const privacyLinks = {
  path: '/privacidade',
  label: 'Aviso de Privacidade',
  login: 'Como cuidamos dos seus dados: Aviso de Privacidade',
  registration: 'Antes de criar a conta, veja quais dados guardamos, para quê e como usar seus direitos:',
  settingsHeading: 'Privacidade',
  settingsText: 'O que o portal guarda sobre você, quem vê, por quanto tempo, e com quem falar.',
} as const;

export const privacyNotice = {
  title: 'Aviso de Privacidade',
  contentsLabel: 'Nesta página',
  intro: [
    'Aqui está, em poucas palavras, o que o Portal do Motorista guarda sobre você, para quê, quem mais vê, por quanto tempo e como usar seus direitos.',
    'Quem decide sobre seus dados é a empresa que oferece o portal, identificada nos Termos de Uso. Seus direitos vêm da Lei Geral de Proteção de Dados (LGPD, Lei 13.709/2018).',
  ],
  sections: [
    {
      id: 'o-que-guardamos',
      heading: 'O que guardamos',
      items: [
        {
          title: 'Seu cadastro',
          text: 'Nome, CPF ou CNPJ, celular e senha. A senha fica guardada embaralhada: ninguém consegue lê-la, nem nós.',
        },
        {
          title: 'Seus veículos e tags',
          text: 'Placa, CPF/CNPJ e RNTRC da ANTT, eixos, tipo e modelo do veículo, e o número e a situação de cada tag.',
        },
        {
          title: 'Seu dinheiro no portal',
          text: 'Compras de saldo por Pix, saques e as chaves Pix usadas, chaves salvas, limites de saque, recarga automática, passagens de pedágio, VPOs, contestações e cada movimento do extrato.',
        },
        {
          title: 'Suas entradas no portal',
          text: 'Data, hora e endereço de internet (IP) de cada entrada, do cadastro e de cada vez que você baixa seus dados.',
        },
        {
          title: 'Seus aparelhos',
          text: 'Se você ligar as notificações, o endereço para onde o aviso vai no seu celular. Elas são opcionais: o portal funciona sem elas, e desligar apaga esse endereço.',
        },
        {
          title: 'No seu celular',
          text: 'O portal lembra que você entrou, para não pedir a senha toda hora, e guarda os últimos dados que você viu, para funcionar sem sinal. Tocar em Sair apaga tudo isso do celular.',
        },
      ],
    },
    {
      id: 'para-que',
      heading: 'Para que usamos',
      items: [
        {
          title: 'Prestar o serviço que você pediu',
          text: 'Saldo, Pix, saques, tags, pedágios e VPOs. Sem esses dados o portal não funciona (contrato: LGPD, art. 7º, V).',
        },
        {
          title: 'Cumprir a lei',
          text: 'A lei manda guardar os registros de entrada no portal e os registros de movimentação de dinheiro (LGPD, art. 7º, II).',
        },
        {
          title: 'Proteger sua conta',
          text: 'Limites de tentativas de entrada e de saque, e avisos quando algo muda na conta, contra golpes e roubo de celular (interesse legítimo: LGPD, art. 7º, IX).',
        },
      ],
      outro: 'Usamos seus dados só para isso. Nada é usado para propaganda.',
    },
    {
      id: 'quem-ve',
      heading: 'Quem mais vê seus dados',
      items: [
        {
          title: 'Asaas, que faz os Pix',
          text: 'Seu nome e CPF/CNPJ, o valor de cada compra, saque e recarga automática, e a chave Pix de cada saque.',
        },
        {
          title: 'A operadora da sua tag',
          text: 'O número da tag, a placa, os eixos e o tipo do veículo e o seu CPF/CNPJ como titular. Nas contestações, a passagem contestada, o motivo e o que você escreveu.',
        },
        {
          title: 'Quem emite seus VPOs (embarcador)',
          text: 'Só os VPOs que emitiu: a tag, a placa, os valores e as passagens que cada um pagou. Não vê seu nome, seu CPF/CNPJ nem seu saldo.',
        },
        {
          title: 'Plataforma de saldo de terceiros',
          text: 'Informa créditos e débitos do seu SaldoTerceiro pelo seu CPF/CNPJ. Não vê seu saldo nem seus outros dados.',
        },
        {
          title: 'O serviço de notificações do seu navegador',
          text: 'Google, Apple, Mozilla ou Microsoft entregam os avisos no seu celular. O conteúdo do aviso vai cifrado: eles não leem.',
        },
        {
          title: 'Autoridades',
          text: 'Só quando a lei obriga, por exemplo com ordem da Justiça.',
        },
      ],
    },
    {
      id: 'por-quanto-tempo',
      heading: 'Por quanto tempo',
      items: [
        {
          title: 'Entradas no portal (data, hora e IP)',
          text: '6 meses, como manda o Marco Civil da Internet (Lei 12.965/2014, art. 15). Depois, apagamos.',
        },
        {
          title: 'Movimentos de dinheiro e os dados que mostram de quem são',
          text: '5 anos depois que a conta é encerrada, como manda a lei contra lavagem de dinheiro (Lei 9.613/1998, art. 10).',
        },
        {
          title: 'O resto',
          text: 'Só enquanto for preciso. Ao encerrar a conta, apagamos na hora seu nome, celular, senha, chaves Pix, aparelhos e a recarga automática. Os movimentos e o seu CPF/CNPJ ficam guardados à parte pelos 5 anos da lei; depois, o que ainda diz quem você é também é apagado.',
        },
      ],
    },
    {
      id: 'seus-direitos',
      heading: 'Seus direitos e como usar',
      intro: 'A maior parte você faz sozinho, no portal, na hora:',
      items: [
        {
          title: 'Ver e baixar tudo o que guardamos',
          text: 'Em Configurações, Meus dados: um arquivo com todos os seus dados e um resumo em PDF.',
          link: { to: '/configuracoes#meus-dados', label: 'Ir para Meus dados' },
        },
        {
          title: 'Levar seus dados para outro serviço',
          text: 'O mesmo arquivo de Meus dados traz cada tipo de dado num formato que outro sistema lê.',
        },
        {
          title: 'Corrigir nome e celular',
          text: 'Em Configurações, Seus dados. O CPF/CNPJ identifica a conta e não muda.',
          link: { to: '/configuracoes#seus-dados', label: 'Corrigir seus dados' },
        },
        {
          title: 'Encerrar a conta e apagar o que não for mais preciso',
          text: 'Em Configurações, Encerrar conta. O saldo precisa estar zerado, sem saque, VPO ou contestação em andamento: a tela diz o que falta. Você recebe um comprovante do que foi apagado e do que a lei manda guardar.',
          link: { to: '/configuracoes#encerrar-conta', label: 'Ir para Encerrar conta' },
        },
        {
          title: 'Saber com quem dividimos seus dados',
          text: 'Está nesta página, em "Quem mais vê seus dados".',
        },
        {
          title: 'Qualquer outro pedido ou reclamação',
          text: 'Fale com o encarregado, abaixo. Uma resposta simples vem na hora; a completa, em até 15 dias. Você também pode reclamar à ANPD, a Autoridade Nacional de Proteção de Dados.',
        },
      ],
    },
  ] satisfies readonly PrivacyNoticeSection[],
  officer: {
    id: 'com-quem-falar',
    heading: 'Com quem falar',
    text: 'O encarregado de proteção de dados é a pessoa que responde pelos seus dados no portal:',
    nameLabel: 'Encarregado',
    emailLabel: 'E-mail',
    loading: 'Carregando o contato do encarregado…',
    offline: 'Sem conexão: o contato do encarregado aparece quando a internet voltar.',
    failed: 'Não foi possível carregar o contato do encarregado.',
    support: 'Dúvidas sobre o portal? Fale com o suporte no WhatsApp',
  },
  back: { signedIn: 'Voltar para Configurações', signedOut: 'Voltar para o login' },
} as const;
