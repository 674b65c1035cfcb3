import type { PDFFont } from 'pdf-lib';

const TITLE = 'Termos de Uso — Portal do Motorista';

/** Template text (founding decision 18): readable, clearly a MODELO until the operator publishes the legal one. */
const SECTIONS: { heading: string; paragraphs: string[] }[] = [
  {
    heading: '1. Objeto',
    paragraphs: [
      'Estes Termos de Uso regulam o acesso e a utilização do Portal do Motorista, serviço on-line destinado a motoristas de caminhão, pessoas físicas (CPF) ou jurídicas (CNPJ), que utilizam tags de pedágio.',
      'Pelo portal o motorista consulta o saldo de pedágio e o saldo em outras plataformas, compra saldo por Pix, solicita saques para uma chave Pix, gerencia veículos e tags, consulta os Vales-Pedágio Obrigatórios (VPOs) e o extrato da conta.',
    ],
  },
  {
    heading: '2. Cadastro e acesso',
    paragraphs: [
      'Para utilizar o portal o motorista informa nome completo, CPF ou CNPJ, telefone celular e uma senha pessoal de no mínimo 8 caracteres. O motorista declara que as informações são verdadeiras e se compromete a mantê-las atualizadas.',
      'A senha é pessoal e intransferível. O motorista é responsável por todas as operações realizadas com o seu acesso e deve encerrar a sessão ("Sair") ao usar aparelhos compartilhados.',
    ],
  },
  {
    heading: '3. Saldo e Pix',
    paragraphs: [
      'O saldo de pedágio é adquirido por meio de pagamento via Pix, com valor mínimo de R$ 100,00 por compra. O crédito é lançado após a confirmação do pagamento, o que pode levar alguns minutos.',
      'O motorista pode solicitar o saque do saldo disponível para uma chave Pix de sua escolha. Não é possível sacar valor maior que o saldo disponível. Passagens de pedágio já realizadas podem deixar o saldo negativo, e o valor negativo deverá ser coberto por novas compras.',
    ],
  },
  {
    heading: '4. Tags de pedágio',
    paragraphs: [
      'O motorista pode cadastrar, ativar, bloquear, liberar, cancelar e substituir as tags vinculadas aos seus veículos. A ativação de uma tag implica a cobrança de mensalidade de R$ 15,90, debitada do saldo, e sua renovação mensal enquanto a tag estiver ativa.',
      'O bloqueio e o cancelamento de tags são operações sujeitas às regras das operadoras. Uma tag cancelada não pode ser reativada.',
    ],
  },
  {
    heading: '5. Dados pessoais (LGPD)',
    paragraphs: [
      'Os dados pessoais do motorista são tratados conforme a Lei nº 13.709/2018 (Lei Geral de Proteção de Dados Pessoais), exclusivamente para a prestação dos serviços descritos nestes termos (art. 7º, V), o cumprimento de obrigações legais, como a guarda dos registros de acesso (Lei nº 12.965/2014, art. 15) e das transações (Lei nº 9.613/1998, art. 10) (art. 7º, II), e a prevenção a fraudes (art. 7º, IX).',
      'Os dados são compartilhados apenas com quem é necessário à execução do serviço: a instituição de pagamento que processa o Pix, as operadoras das tags e os parceiros que emitem VPOs ou informam saldo de terceiros, cada um recebendo somente o que precisa. O Aviso de Privacidade do portal (endereço /privacidade, com link na tela de entrada, no cadastro e em Configurações) detalha o que é guardado, para quê, por quanto tempo e quem recebe cada dado.',
      'Em Configurações o motorista vê e baixa seus dados, corrige nome e telefone e encerra a conta. A identidade e o contato do encarregado pelo tratamento de dados pessoais (LGPD, art. 41) estão no Aviso de Privacidade, que mostra sempre o contato atual.',
    ],
  },
  {
    heading: '6. Aceite',
    paragraphs: [
      'Ao marcar a opção de aceite e confirmar, o motorista declara ter lido e concordado com estes Termos de Uso. A recusa dos termos restringe o acesso ao portal até que sejam aceitos.',
      'Estes termos podem ser atualizados. Cada nova versão será apresentada ao motorista, que deverá aceitá-la para continuar utilizando o portal.',
    ],
  },
];

const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const BODY_SIZE = 11;
const LINE = 15;

export async function buildTemplateTermsPdf(): Promise<Uint8Array> {
  // Loaded only when the template is made (a database without terms), not with the module.
  const { PDFDocument, rgb, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(TITLE);
  doc.setLanguage('pt-BR');
  doc.setAuthor('Portal do Motorista');
  doc.setSubject('Modelo de Termos de Uso');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);

  let page = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;

  const ensureSpace = (needed: number) => {
    if (y - needed < PAGE.margin) {
      page = doc.addPage([PAGE.width, PAGE.height]);
      y = PAGE.height - PAGE.margin;
    }
  };
  const write = (text: string, font: PDFFont, size: number, color = rgb(0.1, 0.1, 0.1)) => {
    for (const line of wrap(text, font, size, width)) {
      ensureSpace(LINE);
      page.drawText(line, { x: PAGE.margin, y, font, size, color });
      y -= size + 4;
    }
  };

  write(TITLE, bold, 18);
  y -= 6;
  write(
    'MODELO — texto de exemplo, sem valor jurídico. Substitua pela versão oficial com o comando terms:publish.',
    bold,
    11,
    rgb(0.75, 0.1, 0.1),
  );
  y -= 10;
  for (const section of SECTIONS) {
    ensureSpace(LINE * 3);
    write(section.heading, bold, 13);
    y -= 2;
    for (const paragraph of section.paragraphs) {
      write(paragraph, regular, BODY_SIZE);
      y -= 6;
    }
    y -= 6;
  }
  return doc.save();
}

function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/)) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && font.widthOfTextAtSize(candidate, size) > maxWidth) {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  if (current) lines.push(current);
  return lines;
}
