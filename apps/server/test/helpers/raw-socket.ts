import net from 'node:net';

/**
 * Opens a TCP connection to the app, lets `talk` write on it, and answers what the server said
 * and how long until it closed the connection (tests of what never reaches Fastify's routes).
 */
export function talkUntilClosed(port: number, talk: (socket: net.Socket) => void): Promise<{ ms: number; said: string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let said = '';
    const socket = net.connect(port, '127.0.0.1', () => talk(socket));
    socket.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ ms: Date.now() - started, said }));
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`o servidor não fechou a conexão: ${JSON.stringify(said)}`));
    }, 5000).unref();
  });
}
