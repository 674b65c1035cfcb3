import { describe, expect, it } from 'vitest';
import {
  changedFieldsText,
  liveTopicsOf,
  messages,
  normalizeName,
  notificationMessage,
  profileErrors,
  profileMessages,
  registrationErrors,
} from '../src/index.js';

describe("the driver's own data (issue 35)", () => {
  it("corrects with the registration's rules, the password required", () => {
    expect(profileErrors({ nome: 'Ana', telefone: '', senha: '' })).toEqual({
      nome: messages.registration.nameTooShort,
      telefone: messages.registration.phoneRequired,
      senha: profileMessages.passwordRequired,
    });
    expect(profileErrors({ nome: 'Maria Souza', telefone: '(11) 8765-4321', senha: 'x' })).toEqual({
      telefone: messages.registration.phoneInvalid,
    });
    expect(profileErrors({ nome: 'Maria Souza', telefone: '+55 (11) 98765-4321', senha: 'x' })).toEqual({});
  });

  it('keeps a name as registration does: spaces tidied before its length is weighed', () => {
    expect(normalizeName('  Ana   Lu  ')).toBe('Ana Lu');
    // 'An    B' is 4 letters and a space once kept: too short, though 7 characters as typed.
    expect(profileErrors({ nome: ' An    B ', telefone: '11987654321', senha: 'x' }).nome).toBe(messages.registration.nameTooShort);
    expect(registrationErrors({ name: ' An    B ', cpfCnpj: '', phoneNumber: '', password: '', password_confirmation: '' }).name).toBe(
      messages.registration.nameTooShort,
    );
    expect(profileErrors({ nome: ' Ana   Lu ', telefone: '11987654321', senha: 'x' })).toEqual({});
  });

  it('names what changed in order, and the push says it and opens Configurações', () => {
    expect(changedFieldsText(['telefone', 'nome'])).toBe('nome e telefone');
    expect(changedFieldsText(['telefone'])).toBe('telefone');
    const push = notificationMessage({ kind: 'profileChanged', changeId: 7, fields: ['nome'] });
    expect(push).toEqual({
      titulo: 'Seus dados foram alterados',
      corpo: 'Alterado: nome. Se não foi você, troque sua senha e fale com o suporte.',
      url: '/configuracoes',
      tag: 'dados-7',
    });
    expect(liveTopicsOf([{ kind: 'profileChanged', changeId: 7, fields: ['nome'] }])).toEqual(['profile', 'notices']);
  });
});
