import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../clock.ts';
import type { Store } from '../store/store.ts';
import { countHeldBackChanges, oldestOpenTransaction, type ChangeMarker } from '../store/task-changes.repository.ts';

/** A hold shorter than this is the ordinary overlap of concurrent steps; a longer one is told in the log. */
const FEED_HELD_WARN_MS = 5_000;

export interface FeedWatch {
  /** After a page that reached the feed's head (fewer rows than asked): is the feed holding committed changes back? */
  atHead(input: { after: ChangeMarker; companyUuid: string | undefined }): Promise<void>;
}

/**
 * On Postgres the feed serves only changes older than every open transaction (task-changes.repository.ts), so a
 * transaction left open anywhere on the database server (another database's included) stops it, with no error: pages
 * come back empty while changes wait. This makes the hold visible: `partner_feed_held_back_seconds` and
 * `partner_feed_held_back_changes` while it lasts, and one warning naming the oldest open transaction (its pid,
 * database, age and application, never its query) once it has lasted FEED_HELD_WARN_MS, then one line when it ends
 * (docs/operations.md#the-changes-feed-on-postgres). SQLite never holds a change back: nothing to watch.
 */
export function createFeedWatch(deps: {
  store: Store;
  clock: Clock;
  log: { warn(object: object, message: string): void; info(object: object, message: string): void };
  metrics: Registry | undefined;
}): FeedWatch {
  const { store, clock, log } = deps;
  const registers = deps.metrics ? [deps.metrics] : [];
  const heldSeconds = new Gauge({
    name: 'partner_feed_held_back_seconds',
    help: 'How long the partner API changes feed has been holding committed changes back behind an open transaction (Postgres); 0 when it is not.',
    registers,
  });
  const heldChanges = new Gauge({
    name: 'partner_feed_held_back_changes',
    help: 'Committed changes the last feed read at its head held back behind an open transaction (Postgres), up to 1000 a table.',
    registers,
  });
  let heldSince: number | undefined;
  let warned = false;
  return {
    async atHead(input) {
      if (store.dialect !== 'postgres') return;
      const held = await countHeldBackChanges(store.db, input);
      const now = clock.now();
      heldChanges.set(held);
      if (held === 0) {
        if (warned && heldSince !== undefined) {
          log.info({ event: 'feed_held_back_ended', heldSeconds: (now - heldSince) / 1000 }, 'partner API: the changes feed moves again');
        }
        heldSince = undefined;
        warned = false;
        heldSeconds.set(0);
        return;
      }
      heldSince ??= now;
      heldSeconds.set((now - heldSince) / 1000);
      if (warned || now - heldSince < FEED_HELD_WARN_MS) return;
      warned = true;
      log.warn(
        {
          event: 'feed_held_back',
          heldSeconds: (now - heldSince) / 1000,
          heldChanges: held,
          oldestTransaction: await oldestOpenTransaction(store.db),
        },
        'partner API: the changes feed is holding committed changes back behind a transaction left open on the database server; it moves again when that transaction ends',
      );
    },
  };
}
