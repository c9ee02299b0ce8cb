import { createServer } from 'node:http';
import { Server } from 'socket.io';

/**
 * The socket ceiling: socket.io on a bare HTTP server, no framework, database, queue or adapter.
 * A socket joins the room named by its query token; POST /broadcast answers 201 at once and then
 * emits `notification_received` to rooms 0..count-1, one emit per room as the service does per
 * subscriber, with a message of the service's shape and size. Run as its own process, like the api.
 */
function message(transactionId: string, room: number) {
  const now = new Date().toISOString();
  return {
    _id: `0199c0de-0000-7000-8000-${String(room).padStart(12, '0')}`,
    _environmentId: '0199c0de-0000-7000-8000-00000000e000',
    _organizationId: '0199c0de-0000-7000-8000-00000000f000',
    _notificationId: `0199c0de-0000-7000-8000-${String(room).padStart(12, '1')}`,
    _subscriberId: `0199c0de-0000-7000-8000-${String(room).padStart(12, '2')}`,
    _templateId: '0199c0de-0000-7000-8000-00000000a000',
    templateIdentifier: 'bench-inbox',
    transactionId,
    channel: 'in_app',
    content: `Hello Bench ${room}, order inbox is on its way`,
    cta: {},
    read: false,
    seen: false,
    archived: false,
    deliveredAt: [],
    createdAt: now,
    tags: [],
    severity: 'none',
    subscriber: { subscriberId: `bench-sub-${room + 1}`, firstName: `Bench ${room + 1}` },
  };
}

const http = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/health') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const match = /^\/broadcast\?transactionId=([\w-]+)&rooms=(\d+)$/.exec(request.url ?? '');
  if (request.method !== 'POST' || !match) {
    response.writeHead(404).end();
    return;
  }
  const [, transactionId, rooms] = match;
  response.writeHead(201, { 'content-type': 'application/json' }).end('{"acknowledged":true}');
  setImmediate(() => {
    for (let room = 0; room < Number(rooms); room++)
      io.to(String(room)).emit('notification_received', { message: message(transactionId, room) });
  });
});
const io = new Server(http, { transports: ['websocket'], serveClient: false });
io.on('connection', (socket) => void socket.join(String(socket.handshake.query.token)));

http.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  void io.close();
  process.exit(0);
});
