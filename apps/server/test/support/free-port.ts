import { createServer } from 'node:net';

/**
 * A port free right now on 127.0.0.1. Servers under test need it before they start, because the
 * embedded sign-in provider's issuer URL names the port.
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
