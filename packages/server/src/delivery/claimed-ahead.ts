import type { Clock } from '../clock.ts';
import type { StoreDialect } from '../store/database-schema.ts';
import type { OutboxUpdate } from '../store/outbox.table.ts';

/** How long a row claimed ahead may wait for a slot: the lease covers its slowest delivery only if it starts soon. */
export const AHEAD_MAX_WAIT_MS = 1_000;

/**
 * Rows claimed ahead of a free slot: a claim is a write transaction that takes milliseconds (on Postgres about as long
 * as a delivery), and without rows in hand every slot freed during it would sit idle until it commits. Each is the
 * oldest pending row of its task, leased, so order holds; it starts the moment a delivery ends.
 * How many: 4 x the concurrency in flight and ahead together, and on Postgres up to 16 x while the slots take them
 * fast enough (a row that waits over AHEAD_MAX_WAIT_MS goes back in line, a statement wasted). A Postgres claim cycle
 * (its round trips, the acknowledgements, the claim) lasts several deliveries, and 16 x drained faster than 4 x. SQLite
 * claims far faster, but on the event loop, where a long claim stalls the deliveries, and 16 x slowed it
 * (packages/kit-tests/bench/delivery.ts; BENCHMARKS.md has the delivery rates).
 */
export class ClaimedAhead {
  private readonly rows: OutboxUpdate[] = [];
  private readonly baseCapacity: number;
  private readonly maxCapacity: number;
  /** Deliveries finished in this second and the one before: the pace at which rows claimed ahead are taken. */
  private readonly pace = { second: 0, current: 0, previous: 0 };

  constructor(
    private readonly clock: Clock,
    private readonly concurrency: number,
    dialect: StoreDialect,
  ) {
    this.baseCapacity = concurrency * 4;
    this.maxCapacity = concurrency * (dialect === 'postgres' ? 16 : 4);
  }

  get length(): number {
    return this.rows.length;
  }

  add(update: OutboxUpdate): void {
    this.rows.push(update);
  }

  /** The row claimed first, to start now. */
  next(): OutboxUpdate | undefined {
    return this.rows.shift();
  }

  /** Forgets every row (the relay stops; their leases are released in the database). */
  clear(): void {
    this.rows.length = 0;
  }

  /** A delivery ended: the pace at which slots take rows. */
  deliveryFinished(): void {
    const second = Math.floor(this.clock.now() / 1000);
    if (second !== this.pace.second) {
      this.pace.previous = second === this.pace.second + 1 ? this.pace.current : 0;
      this.pace.current = 0;
      this.pace.second = second;
    }
    this.pace.current += 1;
  }

  /** How many more rows the relay may claim now, with `inFlight` deliveries under way. */
  room(inFlight: number): number {
    // Rows ahead are taken within half their allowed wait at the last second's pace.
    const takenInTime = this.concurrency + Math.round((Math.max(this.pace.current, this.pace.previous) * AHEAD_MAX_WAIT_MS) / 2000);
    const capacity = Math.min(this.maxCapacity, Math.max(this.baseCapacity, takenInTime));
    return capacity - inFlight - this.rows.length;
  }
}
