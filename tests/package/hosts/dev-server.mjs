// Starts a tool's server (a dev server, or `next start`) on 127.0.0.1 at a free
// port and waits until it answers; `stop()` ends it and its children (its own
// process group, started here).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

// A terminal colour code (ESC [ … m).
// eslint-disable-next-line no-control-regex
const ANSI_COLOUR = /\x1b\[[0-9;]*m/g;

/** A port the system says is free now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * @param {string} command
 * @param {(port: number) => string[]} args the arguments, given the port
 * @param {{cwd: string, env?: object, path?: string, timeoutMs?: number}} options
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export async function startServer(command, args, { cwd, env = {}, path = '/', timeoutMs = 180_000 }) {
  const port = await freePort();
  const child = spawn(command, args(port), {
    cwd,
    env: { ...process.env, ...env },
    detached: true, // its own process group, so stop() ends the tool's children too
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await exited;
    }
  };
  const url = `http://127.0.0.1:${port}${path}`;
  // Ready when the tool prints its address (each of them does, once listening).
  const listening = new Promise((resolve, reject) => {
    const read = (d) => {
      // Without colour codes: tools colour their output when CI is set (picocolors), and Vite
      // prints the port between bold on and off.
      output += String(d).replace(ANSI_COLOUR, '');
      if (output.includes(`:${port}`)) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${output}`)));
  });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${command} did not print ${url} in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([listening, timeout]);
    const response = await fetch(url);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}:\n${output}`);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return { url, stop, output: () => output };
}
