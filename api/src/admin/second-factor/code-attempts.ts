import type { Request } from 'express';
import { clientKey } from '../../http/client-ip';
import type { KnownDevice, knownDevices } from '../known-device';
import type { createLoginGuard } from '../login-guard';

/**
 * A second-factor code is a login attempt like a password: counted as a failure before it is
 * checked, under the same limits (per client and username, per username, a known device
 * slowed down), and given back only when it was right. So wrong codes lock out as wrong
 * passwords do, and knowing the password buys no faster guessing of codes.
 */
export function codeAttempts(options: { guard: ReturnType<typeof createLoginGuard>; devices: ReturnType<typeof knownDevices> }) {
  return async function attempt<T>(
    req: Request,
    user: { id: number; username: string; password: string },
    check: () => Promise<T | null>,
  ): Promise<{ result: T | null; device: KnownDevice | null }> {
    const client = clientKey(req.ip);
    const device = options.devices.recognise(req, user);
    if (!device) await options.guard.countClient(client);
    const giveBack = await options.guard.admit({ username: user.username, client, device });
    const result = await check();
    if (result !== null) await giveBack();
    return { result, device };
  };
}

export type CodeAttempts = ReturnType<typeof codeAttempts>;
