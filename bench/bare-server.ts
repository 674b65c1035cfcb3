// The baseline: a bare Fastify route returning a constant JSON of the same shape as /api/motorista/saldo.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { Sucesso: true, Mensagem: 'Saldo consultado', Saldo: 0, SaldoTerceiro: 0 };
app.get('/api/motorista/saldo', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('bare server ready');
