// Makes the benchmark prove it runs offline: from here on any fetch() of a
// non-local URL and any outgoing socket throws, and every attempt is counted.
import net from 'node:net';

const attempts = [];

export function forbidNetwork() {
  const localFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = String(input?.url ?? input);
    if (!/^(file|data|blob):/.test(url)) {
      attempts.push(`fetch ${url}`);
      return Promise.reject(new Error(`bench: network fetch refused: ${url}`));
    }
    return localFetch(input, init);
  };
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (...args) {
    const target = JSON.stringify(args[0]);
    // Local IPC (pipes, the child processes' stdio) is not the network.
    if (typeof args[0] === 'object' && args[0]?.path) return connect.apply(this, args);
    attempts.push(`socket ${target}`);
    throw new Error(`bench: network connection refused: ${target}`);
  };
}

/** Every refused network attempt so far. */
export const networkAttempts = () => [...attempts];
