import { Agent, request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * One request exactly as given (path, headers and body bytes untouched): fetch would normalise them.
 * A kept-alive socket the server closed after its previous answer (e.g. a 413) is retried once on a
 * fresh connection; a second failure is the server's.
 */
export async function sendRaw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawResponse> {
  try {
    return await send(port, method, path, headers, body, agent);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
    return send(port, method, path, headers, body, false);
  }
}

function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  via: Agent | false,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // Node's client frames a DELETE (or OPTIONS) body given to end() with neither Content-Length nor
    // Transfer-Encoding. The server then rightly reads a body-less request (RFC 9112 §6.3) and parses
    // the body bytes as the next request on the connection: it answers 400 and closes, and the client
    // reports "Parse Error: Data after Connection: close". Framing the body is the client's job.
    const framing: Record<string, string> =
      body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { ...framing, ...headers }, agent: via },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function closeRawAgent(): void {
  agent.destroy();
}
