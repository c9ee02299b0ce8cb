import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A password check in front of a PostgreSQL server that has none.
 *
 * pglite-socket 0.2.17 offers no authentication hook: it hands every connection's StartupMessage to
 * PGlite, which answers AuthenticationOk whatever the user and password, so any local user could
 * read or change the embedded database. This gate listens on 127.0.0.1 in its place and speaks the
 * first part of the PostgreSQL protocol itself:
 *
 *   client                              gate                                  PGlite (private socket)
 *   [SSLRequest / GSSENCRequest]  →     'N' (no encryption on loopback)
 *   StartupMessage                →     AuthenticationSASL [SCRAM-SHA-256]
 *   SASLInitialResponse           →     AuthenticationSASLContinue (nonce, salt, iterations)
 *   SASLResponse (proof)          →     AuthenticationSASLFinal (server signature)   StartupMessage →
 *   … from here on the bytes are piped both ways; PGlite's AuthenticationOk, ParameterStatus and
 *   ReadyForQuery complete the login.
 *
 * SCRAM-SHA-256 (RFC 5802/7677, as PostgreSQL does it) rather than a cleartext password: `pg` and
 * libpq speak it, the password never crosses the socket, and a process that grabbed the port after
 * the service stopped learns nothing from a client that still connects to it. A wrong proof gets
 * PostgreSQL's own FATAL 28P01 and the connection is closed. The PGlite server behind the gate must
 * be reachable by nobody else: it listens on a Unix socket in a 0700 directory.
 */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3_0 = 196608;
/** PostgreSQL refuses startup packets above 10,000 bytes; SASL messages are far smaller. */
const MAX_STARTUP_BYTES = 10_000;
const MAX_MESSAGE_BYTES = 8_192;
/** As PostgreSQL's authentication_timeout: a connection that does not finish the login is closed. */
const LOGIN_TIMEOUT_MS = 10_000;
const SCRAM_ITERATIONS = 4096;
const MECHANISM = 'SCRAM-SHA-256';

export interface PasswordGateOptions {
  /** Listen address; 127.0.0.1 for the embedded database. */
  host: string;
  /** 0 = a free port. */
  port: number;
  /** Unix socket of the server behind the gate. */
  target: string;
  /** ASCII (SASLprep would leave it as is). */
  password: string;
  maxConnections: number;
}

/** The SCRAM verifier of the password: what a PostgreSQL server keeps instead of the password. */
interface Verifier {
  salt: Buffer;
  storedKey: Buffer;
  serverKey: Buffer;
}

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();

function verifierOf(password: string): Verifier {
  const salt = randomBytes(16);
  const saltedPassword = pbkdf2Sync(password, salt, SCRAM_ITERATIONS, 32, 'sha256');
  return { salt, storedKey: sha256(hmac(saltedPassword, 'Client Key')), serverKey: hmac(saltedPassword, 'Server Key') };
}

/** An authentication message: 'R', length, request code, data. */
function authentication(code: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const message = Buffer.alloc(9 + data.length);
  message.write('R', 0);
  message.writeInt32BE(8 + data.length, 1);
  message.writeInt32BE(code, 5);
  data.copy(message, 9);
  return message;
}

/** A FATAL ErrorResponse with PostgreSQL's SQLSTATE, which clients show and `pg` exposes as `code`. */
function fatal(sqlState: string, text: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${sqlState}\0M${text}\0\0`);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

/** `key\0value\0…\0` of a StartupMessage (after length and protocol). */
function startupParameters(body: Buffer): Map<string, string> {
  const parts = body.toString('utf8').split('\0');
  const parameters = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) parameters.set(parts[i], parts[i + 1]);
  return parameters;
}

/** `a=1,b=2` of a SCRAM message; a value may hold `=` (base64), never `,`. */
function attributes(text: string): Map<string, string> {
  return new Map(text.split(',').map((pair) => [pair.slice(0, 1), pair.slice(2)]));
}

const PRINTABLE = /^[\x21-\x2b\x2d-\x7e]+$/;

class LoginRefused extends Error {
  constructor(
    readonly sqlState: string,
    message: string,
  ) {
    super(message);
  }
}

/** One client connection until its login is complete, then a pipe to the server behind the gate. */
class Login {
  private buffer = Buffer.alloc(0);
  private phase: 'startup' | 'sasl-initial' | 'sasl-final' | 'done' = 'startup';
  private startup = Buffer.alloc(0);
  private user = '';
  private gs2Header = '';
  private clientFirstBare = '';
  private serverFirst = '';
  private nonce = '';
  private readonly timer: NodeJS.Timeout;
  private readonly onData = (chunk: Buffer) => this.receive(chunk);

  constructor(
    private readonly client: Socket,
    private readonly verifier: Verifier,
    private readonly target: string,
  ) {
    client.setNoDelay(true);
    client.on('data', this.onData);
    client.on('error', () => client.destroy());
    this.timer = setTimeout(() => client.destroy(), LOGIN_TIMEOUT_MS);
    client.once('close', () => clearTimeout(this.timer));
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    try {
      while (this.phase !== 'done') {
        const message = this.phase === 'startup' ? this.nextStartupPacket() : this.nextMessage();
        if (!message) return;
        this.handle(message);
      }
    } catch (error) {
      const refused = error instanceof LoginRefused ? error : new LoginRefused('08P01', 'invalid startup packet');
      this.close(fatal(refused.sqlState, refused.message));
    }
  }

  private close(last?: Buffer): void {
    this.phase = 'done';
    this.client.removeListener('data', this.onData);
    if (last) this.client.end(last);
    else this.client.end();
  }

  /** Startup-phase packets have no type byte: length (including itself), then a code. */
  private nextStartupPacket(): Buffer | undefined {
    if (this.buffer.length < 4) return undefined;
    const length = this.buffer.readInt32BE(0);
    if (length < 8 || length > MAX_STARTUP_BYTES) throw new LoginRefused('08P01', 'invalid length of startup packet');
    return this.take(length);
  }

  /** Later messages: a type byte, then a length that includes itself but not the type. */
  private nextMessage(): Buffer | undefined {
    if (this.buffer.length < 5) return undefined;
    const length = this.buffer.readInt32BE(1);
    if (length < 4 || length > MAX_MESSAGE_BYTES) throw new LoginRefused('08P01', 'invalid message length');
    return this.take(1 + length);
  }

  private take(length: number): Buffer | undefined {
    if (this.buffer.length < length) return undefined;
    const message = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return message;
  }

  private handle(message: Buffer): void {
    if (this.phase === 'startup') return this.handleStartupPacket(message);
    const type = String.fromCharCode(message[0]);
    // Terminate: the client gave up (e.g. it has no password to offer).
    if (type === 'X') return this.close();
    if (type !== 'p') throw new LoginRefused('08P01', `expected SASL response, got message type ${message[0]}`);
    const body = message.subarray(5);
    if (this.phase === 'sasl-initial') this.handleInitialResponse(body);
    else this.handleFinalResponse(body);
  }

  private handleStartupPacket(packet: Buffer): void {
    const code = packet.readInt32BE(4);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
      // No encryption on loopback: 'N' tells the client to go on in clear (psql asks by default).
      this.client.write('N');
      return;
    }
    if (code === CANCEL_REQUEST) throw new LoginRefused('0A000', 'cancel requests are not supported');
    if (code !== PROTOCOL_3_0) throw new LoginRefused('0A000', 'unsupported frontend protocol');
    this.startup = Buffer.from(packet);
    this.user = startupParameters(packet.subarray(8)).get('user') ?? '';
    this.phase = 'sasl-initial';
    this.client.write(authentication(10, Buffer.from(`${MECHANISM}\0\0`)));
  }

  /** SASLInitialResponse: mechanism\0, int32 length, client-first-message `n,,n=<user>,r=<nonce>`. */
  private handleInitialResponse(body: Buffer): void {
    const end = body.indexOf(0);
    if (end < 0 || body.subarray(0, end).toString() !== MECHANISM)
      throw new LoginRefused('28000', `only ${MECHANISM} is offered`);
    const clientFirst = body.subarray(end + 5).toString('utf8');
    // gs2 header: `n` (no channel binding) or `y` (client could, thinks we cannot), an optional authzid.
    const gs2 = /^([ny]),(a=[^,]*)?,(.*)$/.exec(clientFirst);
    if (!gs2) throw new LoginRefused('28000', 'channel binding is not supported');
    this.gs2Header = `${gs2[1]},${gs2[2] ?? ''},`;
    this.clientFirstBare = gs2[3];
    const clientNonce = attributes(this.clientFirstBare).get('r');
    if (!clientNonce || !PRINTABLE.test(clientNonce)) throw new LoginRefused('08P01', 'invalid SCRAM nonce');
    this.nonce = clientNonce + randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${this.verifier.salt.toString('base64')},i=${SCRAM_ITERATIONS}`;
    this.phase = 'sasl-final';
    this.client.write(authentication(11, Buffer.from(this.serverFirst)));
  }

  /** SASLResponse: client-final-message `c=<gs2 header, base64>,r=<nonce>,p=<proof>`. */
  private handleFinalResponse(body: Buffer): void {
    const clientFinal = body.toString('utf8');
    const proofAt = clientFinal.lastIndexOf(',p=');
    const withoutProof = proofAt < 0 ? clientFinal : clientFinal.slice(0, proofAt);
    const fields = attributes(withoutProof);
    const proof = Buffer.from(proofAt < 0 ? '' : clientFinal.slice(proofAt + 3), 'base64');
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const clientSignature = hmac(this.verifier.storedKey, authMessage);
    const valid =
      fields.get('c') === Buffer.from(this.gs2Header).toString('base64') &&
      fields.get('r') === this.nonce &&
      proof.length === clientSignature.length &&
      // The proof is ClientKey XOR ClientSignature; the password is right if H(ClientKey) = StoredKey.
      timingSafeEqual(sha256(Buffer.from(proof.map((byte, i) => byte ^ clientSignature[i]))), this.verifier.storedKey);
    if (!valid) throw new LoginRefused('28P01', `password authentication failed for user "${this.user}"`);
    this.client.write(
      authentication(12, Buffer.from(`v=${hmac(this.verifier.serverKey, authMessage).toString('base64')}`)),
    );
    this.phase = 'done';
    this.admit();
  }

  /** Replays the StartupMessage to the server behind the gate, then pipes both ways. */
  private admit(): void {
    clearTimeout(this.timer);
    this.client.removeListener('data', this.onData);
    const server = connect(this.target);
    server.write(this.startup);
    if (this.buffer.length > 0) server.write(this.buffer);
    this.client.pipe(server);
    server.pipe(this.client);
    const closeBoth = () => {
      this.client.destroy();
      server.destroy();
    };
    server.on('error', closeBoth);
    server.on('close', closeBoth);
    this.client.on('close', closeBoth);
  }
}

export class PasswordGate {
  private readonly clients = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(options: PasswordGateOptions): Promise<PasswordGate> {
    const verifier = verifierOf(options.password);
    const server = createServer();
    const gate = new PasswordGate(server);
    server.maxConnections = options.maxConnections;
    server.on('connection', (socket) => {
      gate.clients.add(socket);
      socket.once('close', () => gate.clients.delete(socket));
      new Login(socket, verifier, options.target);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return gate;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get host(): string {
    return (this.server.address() as AddressInfo).address;
  }

  async stop(): Promise<void> {
    for (const socket of this.clients) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
