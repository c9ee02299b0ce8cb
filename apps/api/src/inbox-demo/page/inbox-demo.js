/* global io, window, document, fetch, URLSearchParams */
// The inbox demo: a subscriber session as any browser starts one, the subscriber's latest
// notifications, then each new one as the socket delivers it. Message content is whatever a trigger
// sent: it is shown as text, never parsed as markup.

const params = new URLSearchParams(window.location.search);
const statusLine = document.getElementById('status');
const list = document.getElementById('notifications');

function setStatus(text, state) {
  statusLine.textContent = text;
  document.body.dataset.state = state;
}

function show(notification) {
  const item = document.createElement('li');
  const subject = document.createElement('strong');
  subject.textContent = notification.subject || '';
  const body = document.createElement('p');
  body.textContent = notification.body || '';
  item.append(subject, body);
  list.prepend(item);
}

async function call(method, path, token, body) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body && JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${answer.message}`);
  return answer;
}

async function start() {
  const session = await call('POST', '/v1/inbox/session', undefined, {
    applicationIdentifier: params.get('applicationIdentifier'),
    subscriberId: params.get('subscriberId'),
    subscriberHash: params.get('subscriberHash') || undefined,
  });
  const { token } = session.data;
  const latest = await call('GET', '/v1/inbox/notifications?limit=20', token);
  for (const notification of latest.data.reverse()) show(notification);

  // The service's socket speaks websocket only (no long polling).
  const socket = io({ transports: ['websocket'], query: { token } });
  socket.on('connect', () => setStatus(`Listening for ${params.get('subscriberId')}'s notifications`, 'listening'));
  socket.on('connect_error', (error) => setStatus(`Socket refused: ${error.message}`, 'error'));
  socket.on('disconnect', () => setStatus('Disconnected: reload the page for a new session', 'disconnected'));
  socket.on('notification_received', ({ message }) => show({ subject: message.subject, body: message.content }));
}

start().catch((error) => setStatus(error.message, 'error'));
