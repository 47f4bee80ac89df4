let messages: { channel: MessageChannel; queue: (() => void)[] } | undefined;

/**
 * Runs `run` in a task of its own, soon: a posted message, as React's scheduler posts
 * one. Timers would be clamped to 4 ms after a few nested calls, and held back where
 * timers are (a tab in the background, a paused clock). The channel is made on first use,
 * so that importing this in Node (the prerender) keeps no port open.
 */
export function inNextTask(run: () => void) {
  if (!messages) {
    const created = { channel: new MessageChannel(), queue: [] as (() => void)[] };
    created.channel.port1.onmessage = () => created.queue.shift()?.();
    messages = created;
  }
  messages.queue.push(run);
  messages.channel.port2.postMessage(null);
}
