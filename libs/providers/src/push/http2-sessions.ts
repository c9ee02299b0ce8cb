import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { MAX_ANSWER_BYTES } from '../http/provider-request.js';
import { guardedLookup } from '../http/target-guard.js';

export interface Http2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Http2Post {
  origin: URL;
  /** Which session to use besides the origin: requests with other keys never share a connection. */
  sessionKey: string;
  /** The socket resolves through the SSRF guard (a baseUrl override, checked again when connecting). */
  guarded: boolean;
  path: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** Failures of a post besides the session's own errors: a timeout, or an answer past MAX_ANSWER_BYTES. */
export class Http2PostError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
    readonly status = 0,
  ) {
    super(message);
  }
}

class RefusedStreamError extends Error {}

/**
 * Long-lived HTTP/2 sessions, one per origin and key. APNs wants providers to keep their connections
 * open across notifications (opening one per push can be taken for a denial-of-service attack). A
 * session that fails, closes or receives GOAWAY is dropped and the next post connects again.
 */
export class Http2SessionPool {
  private readonly sessions = new Map<string, ClientHttp2Session>();

  /**
   * A stream the server refused (REFUSED_STREAM: it sent GOAWAY before this request reached it) was
   * never processed, so it goes once more on a new session.
   */
  async post(call: Http2Post): Promise<Http2Answer> {
    try {
      return await this.postOnce(call);
    } catch (error) {
      if (!(error instanceof RefusedStreamError)) throw error;
      return this.postOnce(call);
    }
  }

  private postOnce(call: Http2Post): Promise<Http2Answer> {
    const session = this.session(call.origin, call.sessionKey, call.guarded);
    return new Promise((resolve, reject) => {
      const request = session.request({
        [constants.HTTP2_HEADER_METHOD]: 'POST',
        [constants.HTTP2_HEADER_PATH]: call.path,
        ...call.headers,
      });
      const timer = setTimeout(() => {
        // No answer in time may be a dead connection that never said so: start the next post afresh.
        session.destroy();
        reject(new Http2PostError(`timed out after ${call.timeoutMs} ms`));
      }, call.timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        request.close(constants.NGHTTP2_CANCEL);
        reject(error);
      };
      request.on('error', (error: Error) => {
        if (request.rstCode !== constants.NGHTTP2_REFUSED_STREAM) return fail(error);
        this.forget(session);
        fail(new RefusedStreamError());
      });
      let status = 0;
      let headers: IncomingHttpHeaders = {};
      request.on('response', (received) => {
        status = Number(received[constants.HTTP2_HEADER_STATUS]);
        headers = received;
      });
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) return fail(new Http2PostError('answer too large', true, status));
        chunks.push(chunk);
      });
      request.on('end', () => {
        clearTimeout(timer);
        resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      request.end(call.body);
    });
  }

  /** Closes every session: streams under way finish first. */
  async close(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(
      sessions.map(
        (session) =>
          new Promise<void>((resolve) => {
            if (session.destroyed) return resolve();
            session.once('close', () => resolve());
            session.close();
          }),
      ),
    );
  }

  private session(origin: URL, key: string, guarded: boolean): ClientHttp2Session {
    const id = `${origin.origin} ${guarded} ${key}`;
    const open = this.sessions.get(id);
    if (open && !open.closed && !open.destroyed) return open;
    const session = connect(origin, guarded ? { lookup: guardedLookup } : {});
    // An idle session must not keep the process alive; shutdown closes the pool.
    session.unref();
    const drop = () => this.forget(session);
    session.on('goaway', drop);
    session.on('close', drop);
    // Its streams fail too, with this error as their cause: the caller reports it from there.
    session.on('error', drop);
    this.sessions.set(id, session);
    return session;
  }

  private forget(session: ClientHttp2Session): void {
    for (const [id, open] of this.sessions) if (open === session) this.sessions.delete(id);
  }
}
