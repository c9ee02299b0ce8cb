import type { Message } from '../../api/types';

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return JSON.stringify(content, null, 2);
}

/**
 * A sent message as the channel rendered it. An email's HTML shows in a sandboxed frame: no script of it runs,
 * and it cannot reach the dashboard's page or cookies.
 */
export function RenderedMessage({ message }: { message: Message }) {
  const text = contentText(message.content);
  return (
    <article className="message" aria-label={`${message.channel} message`}>
      <h4>
        {message.channel}
        {message.subject ? `: ${message.subject}` : ''}
        <span className="muted">{message.read ? ' · read' : message.seen ? ' · seen' : ''}</span>
      </h4>
      {message.channel === 'email' ? (
        <iframe title={`Email ${message.subject ?? ''}`} sandbox="" srcDoc={text} className="email-frame" />
      ) : (
        <pre className="message-body">{text}</pre>
      )}
    </article>
  );
}
