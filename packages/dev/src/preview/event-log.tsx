import type { LoggedMessage } from './use-portal-messages.ts';
import { TimeStamp } from './time-stamp.tsx';

/** Every message the portal window received, newest first, with what the portal made of it. */
export function EventLog({ messages }: { messages: readonly LoggedMessage[] }) {
  return (
    <section className="pv-card" aria-labelledby="event-log-title">
      <h2 id="event-log-title">Messages received</h2>
      {messages.length === 0 ? (
        <p className="pv-muted">No message yet. The task page posts the end event here when the worker finishes.</p>
      ) : (
        <ol className="pv-log" aria-label="Messages received, newest first">
          {messages.map((message) => (
            <li key={message.id}>
              <TimeStamp iso={message.at} />{' '}
              <span className={message.verdict === 'end event' ? 'pv-tag pv-tag-success' : 'pv-tag'}>{message.verdict}</span>
              <code className="pv-code">{message.data}</code>
              <span className="pv-muted"> from {message.origin}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
