/**
 * Rejects if `promise` has not settled within `ms`. When the timer fires, the answer gets
 * one turn of the event loop's I/O first: after a process stalled longer than `ms` (a busy
 * machine, a long task), Node runs due timers before it reads the sockets, so a reply that
 * arrived in time would otherwise lose to the timer.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'operation'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let afterIo: NodeJS.Immediate | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      afterIo = setImmediate(() => reject(new Error(`${what} did not answer within ${ms} ms`)));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
    clearImmediate(afterIo);
  });
}
