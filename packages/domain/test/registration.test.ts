import { describe, expect, it } from 'vitest';
import { formatPhone, loginErrors, registrationErrors, toBrazilianE164 } from '../src/index.js';

const valid = {
  name: 'Maria da Silva',
  cpfCnpj: '529.982.247-25',
  phoneNumber: '(11) 98765-4321',
  password: 'segredo123',
  password_confirmation: 'segredo123',
};

describe('registration rules', () => {
  it('accepts a complete, valid form', () => {
    expect(registrationErrors(valid)).toEqual({});
  });

  it('gives each field its message', () => {
    expect(registrationErrors({ name: 'Ana', cpfCnpj: '', phoneNumber: '', password: '1234567', password_confirmation: 'x' })).toEqual({
      name: 'Por favor digite seu nome completo',
      cpfCnpj: 'Por favor insira seu CPF ou CNPJ',
      phoneNumber: 'Por favor insira seu telefone',
      password: 'Digite uma senha de pelo menos 8 caracteres',
      password_confirmation: 'As senhas não coincidem',
    });
    expect(registrationErrors({ ...valid, phoneNumber: '(11) 9876-5432' }).phoneNumber).toBe('Número de telefone inválido');
    expect(registrationErrors({ ...valid, phoneNumber: '+5511987654321' })).toEqual({});
    expect(registrationErrors({ ...valid, phoneNumber: '+55 (11) 9876-5432' }).phoneNumber).toBe('Número de telefone inválido');
    expect(registrationErrors({ ...valid, name: '    Ana    ' }).name).toBe('Por favor digite seu nome completo');
  });

  it('requires both login fields', () => {
    expect(loginErrors({ cpfCnpj: '...-', password: '' })).toEqual({
      cpfCnpj: 'Por favor digite seu CPF/CNPJ',
      password: 'Por favor digite sua senha',
    });
  });
});

describe('phone', () => {
  it('goes out as +55 and 11 digits and comes back masked', () => {
    expect(toBrazilianE164('(11) 98765-4321')).toBe('+5511987654321');
    expect(toBrazilianE164('+5511987654321')).toBe('+5511987654321');
    // DDD 55 (Rio Grande do Sul) is an area code, not a country code, without the '+'.
    expect(toBrazilianE164('55987654321')).toBe('+5555987654321');
    expect(formatPhone('+5511987654321')).toBe('(11) 98765-4321');
  });
});
