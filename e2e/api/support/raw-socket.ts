import net from 'node:net';

// HTTP as no client library sends it: a request written byte for byte, and the answer as it came.

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** From the first byte written to the connection's close. */
  ms: number;
}

/** Writes `parts` to a new connection to `baseUrl`, `gapMs` apart, and reads until the server closes it. */
export function rawExchange(baseUrl: string, parts: string[], gapMs = 0, timeoutMs = 30_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const started = Date.now();
    const timers: NodeJS.Timeout[] = [];
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connection still open after ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('connect', () => {
      parts.forEach((part, i) => timers.push(setTimeout(() => socket.writable && socket.write(part), i * gapMs)));
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(deadline);
      timers.forEach(clearTimeout);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), ms: Date.now() - started });
    });
  });
}
