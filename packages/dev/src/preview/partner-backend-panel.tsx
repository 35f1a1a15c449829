import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  offerAnswerModes,
  partnerBackendQueryOptions,
  taskFileUrl,
  useResolvePartnerStep,
  useSetOfferMode,
  type OfferAnswerMode,
  type ReceivedEvent,
  type ReceivedOfferRequest,
  type TaskFile,
} from './api/partner-backend.ts';
import { TimeStamp } from './time-stamp.tsx';
import { Button } from '@partner-task-kit/page/screens';
import { Notice } from '@partner-task-kit/page/screens';

/**
 * The partner's own backend as emulator mode stands it in (docs/development.md#the-partner-backend-panel): the signed
 * events it received for this task, the files of the task's answers as the partner API hands them over, and, while a
 * step waits on it, the results it can send through the partner API.
 */
export function PartnerBackendPanel({ controlPath, assignedTaskUuid }: { controlPath: string; assignedTaskUuid: string }) {
  const backend = useQuery(partnerBackendQueryOptions(controlPath, assignedTaskUuid));
  const resolve = useResolvePartnerStep(controlPath, assignedTaskUuid);
  const awaiting = backend.data?.awaiting ?? null;
  const events = backend.data?.events ?? [];
  const offers = backend.data?.offers ?? null;
  const files = backend.data?.files ?? [];
  const setMode = useSetOfferMode(controlPath, assignedTaskUuid);
  // Set in the click's own event, so the controlled radio never falls back to the old choice before the mutation's
  // state arrives (React Query notifies in a later task); cleared once the choice is stored or refused.
  const [chosen, setChosen] = useState<OfferAnswerMode | undefined>(undefined);
  const choose = (mode: OfferAnswerMode) => {
    setChosen(mode);
    setMode.mutate(mode, { onSettled: () => setChosen(undefined) });
  };
  return (
    <section className="pv-card" aria-labelledby="partner-backend-title">
      <h2 id="partner-backend-title">Partner backend</h2>
      {backend.isError && <p className="pv-error">Could not read the partner backend: {backend.error.message}</p>}
      {awaiting && (
        <div className="pv-awaiting" role="group" aria-labelledby="partner-awaiting-title">
          <h3 id="partner-awaiting-title">The task waits on your backend: step “{awaiting.shortName}”</h3>
          <p className="pv-muted pv-small">
            Each button sends <code>POST /api/partner/v1/tasks/…/steps/{awaiting.stepId}</code> with that result, as your backend would.
          </p>
          <div className="pv-actions">
            {awaiting.results.map((result) => (
              <Button
                key={result.label}
                variant="secondary"
                busy={resolve.isPending && resolve.variables.data === result.data}
                busyText="Sending…"
                onClick={() => {
                  if (!resolve.isPending) {
                    resolve.mutate({ stepId: awaiting.stepId, data: result.data, workerMessage: result.workerMessage });
                  }
                }}
              >
                Report {result.label.toLowerCase()}
              </Button>
            ))}
          </div>
        </div>
      )}
      <Notice tone="error">{resolve.isError ? `The partner API refused it: ${resolve.error.message}` : undefined}</Notice>
      <h3>Files</h3>
      {files.length === 0 ? (
        <p className="pv-muted">None yet. A file appears here once the step that holds it is saved.</p>
      ) : (
        <ul className="pv-files" aria-label="Files of the task's answers">
          {files.map((file) => (
            <li key={file.id}>
              <FileCard file={file} url={taskFileUrl(controlPath, assignedTaskUuid, file.id)} />
            </li>
          ))}
        </ul>
      )}
      <h3>Offer requests</h3>
      {backend.data && offers === null ? (
        <p className="pv-muted">Offers are asked of PARTNER_BACKEND_URL: your own backend shows its requests.</p>
      ) : (
        offers && (
          <>
            <fieldset className="pv-offer-mode">
              <legend>The next offer requests are answered with</legend>
              {offerAnswerModes.map((mode) => (
                <label key={mode}>
                  <input
                    type="radio"
                    name="offer-mode"
                    value={mode}
                    checked={(chosen ?? offers.mode) === mode}
                    onChange={() => choose(mode)}
                  />{' '}
                  {offerModeLabels[mode]}
                </label>
              ))}
            </fieldset>
            {offers.requests.length === 0 ? (
              <p className="pv-muted">None yet. The server asks when the worker reaches a step with an offer.</p>
            ) : (
              <ol className="pv-log" aria-label="Offer requests, newest first">
                {offers.requests.map((request) => (
                  <li key={`${request.webhookId} ${request.receivedAt}`}>
                    <OfferRequestLine request={request} />
                  </li>
                ))}
              </ol>
            )}
          </>
        )
      )}
      <Notice tone="error">{setMode.isError ? `Could not change the answer: ${setMode.error.message}` : undefined}</Notice>
      <h3>Events received</h3>
      {backend.data?.receiver === false ? (
        <p className="pv-muted">The events go to PARTNER_WEBHOOK_URL: your own receiver shows them.</p>
      ) : events.length === 0 ? (
        <p className="pv-muted">None yet. The server sends one when a step is saved and when the task ends or restarts.</p>
      ) : (
        <ol className="pv-log" aria-label="Events received, newest first">
          {events.map((event) => (
            <li key={`${event.webhookId} ${event.receivedAt}`}>
              <EventLine event={event} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const offerModeLabels: Record<OfferAnswerMode, string> = {
  offers: 'offers (the step’s sample)',
  none: 'none (nothing to choose)',
  error: 'an error (HTTP 500)',
  slow: 'too slow (no answer within OFFER_TIMEOUT_MS)',
};

/**
 * A file as the partner gets it from `GET /api/partner/v1/tasks/…/uploads/{id}`: an image shown small (the cleaned
 * one, with no EXIF left), any file a link to that download, with the description the events and the API carry.
 */
function FileCard({ file, url }: { file: TaskFile; url: string }) {
  const name = `${file.stepId} · ${file.field}`;
  return (
    <figure className="pv-file">
      {file.contentType.startsWith('image/') && <img src={url} alt={name} loading="lazy" decoding="async" />}
      <figcaption>
        <a href={url} download>
          {name}
        </a>{' '}
        <span className="pv-muted pv-small">
          {file.contentType}, {formatBytes(file.bytes)}, sha256 <code title={file.sha256}>{file.sha256.slice(0, 12)}…</code>
        </span>
      </figcaption>
    </figure>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function OfferRequestLine({ request }: { request: ReceivedOfferRequest }) {
  return (
    <>
      <TimeStamp iso={new Date(request.receivedAt).toISOString()} />{' '}
      <strong>
        {request.workflowId} / {request.stepId}
      </strong>{' '}
      {request.verified ? (
        <span className="pv-tag pv-tag-success">signature verified</span>
      ) : (
        <span className="pv-tag pv-tag-dead">signature not verified</span>
      )}
      <span className="pv-muted pv-small"> answered with {offerModeLabels[request.answeredWith]}</span>
      <details>
        <summary>Body</summary>
        <pre className="pv-code">{JSON.stringify(request.body, null, 2)}</pre>
      </details>
    </>
  );
}

function EventLine({ event }: { event: ReceivedEvent }) {
  return (
    <>
      <TimeStamp iso={new Date(event.receivedAt).toISOString()} /> <strong>{event.type || 'not an event'}</strong>{' '}
      {event.verified ? (
        <span className="pv-tag pv-tag-success">signature verified</span>
      ) : (
        <span className="pv-tag pv-tag-dead">signature not verified: {event.verifyError}</span>
      )}
      <span className="pv-muted pv-small"> webhook-id {event.webhookId}</span>
      <details>
        <summary>Body</summary>
        <pre className="pv-code">{JSON.stringify(event.body, null, 2)}</pre>
      </details>
    </>
  );
}
