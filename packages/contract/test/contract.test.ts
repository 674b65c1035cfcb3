import { describe, expect, it } from 'vitest';
import { api, buildPath } from '../src/index.js';

describe('contract', () => {
  it('reports every registration rule on its field, and refuses other user types', () => {
    const result = api.register.body.safeParse({});
    expect(result.success).toBe(false);
    const byField = Object.fromEntries(result.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(byField).toEqual({
      name: 'Por favor digite seu nome completo',
      cpfCnpj: 'Por favor insira seu CPF ou CNPJ',
      phoneNumber: 'Por favor insira seu telefone',
      password: 'Digite uma senha de pelo menos 8 caracteres',
      type: 'Tipo de usuário inválido',
    });
  });

  it('normalises what it accepts: CPF/CNPJ without mask, name without extra spaces', () => {
    const parsed = api.register.body.parse({
      name: '  Maria   da Silva ',
      cpfCnpj: '12.abc.345/01de-35',
      phoneNumber: '(11) 98765-4321',
      password: 'segredo123',
      password_confirmation: 'segredo123',
      type: 'driver',
    });
    expect(parsed.name).toBe('Maria da Silva');
    expect(parsed.cpfCnpj).toBe('12ABC34501DE35');
    expect(api.login.body.parse({ cpfCnpj: '529.982.247-25', password: 'x' }).cpfCnpj).toBe('52998224725');
  });

  it('builds paths with encoded parameters', () => {
    expect(buildPath(api.status.path, { userId: 7 })).toBe('/api/termos/status-atual/7');
    expect(() => buildPath(api.download.path)).toThrow('Parâmetro ausente: termId');
  });
});

describe('tag contract', () => {
  it('normalises a registration and fills vehicleType from the axles', () => {
    const parsed = api.registerTag.body.parse({
      serialNumber: '1234 5678 9012 3456',
      Operadora: '90.100.001/0001-09',
      licensePlate: 'abc-1d23',
      cnpj: '529.982.247-25',
      invoiceGroupCode: 'PEDAGIO-MOTORISTA',
      axles: '2',
      CpfCnpjAntt: '529.982.247-25',
      RntrcAntt: '1234-5678',
      modelo: 'scania-r-450',
    });
    expect(parsed).toEqual({
      serialNumber: '1234567890123456',
      Operadora: '90100001000109',
      licensePlate: 'ABC1D23',
      cnpj: '52998224725',
      invoiceGroupCode: 'PEDAGIO-MOTORISTA',
      vehicleType: 1,
      axles: 2,
      CpfCnpjAntt: '52998224725',
      RntrcAntt: '12345678',
      modelo: 'scania-r-450',
    });
  });

  it('checks statusId and origem, and the replacement serial', () => {
    expect(api.blockTag.body.safeParse({ serialNumber: '1', statusId: '200', origem: 'Pedagio motorista' }).success).toBe(true);
    expect(api.releaseTag.body.safeParse({ serialNumber: '1', statusId: '200', origem: 'Pedagio motorista' }).success).toBe(false);
    const replace = api.replaceTag.body.safeParse({ serialNumber: '1', newSerialNumber: '1234567' });
    expect(replace.error?.issues[0]?.message).toBe('Digite o número da nova Tag para substituir');
    expect(buildPath(api.vehicleDetail.path, { licensePlate: 'ABC1D23' })).toBe('/api/veiculo/detail/ABC1D23');
  });
});
