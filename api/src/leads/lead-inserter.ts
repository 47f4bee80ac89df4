import type { Knex } from 'knex';
import { DatabaseBusyError, isDatabaseUnavailable } from '../http/database-errors';
import { insertLeads, type InsertLeadResult, type IntakeRules, type NewLead, type PlaceRules } from './leads.repo';

/** The offer had no free place left for the lead (decision 047): nothing of it was stored. */
export class NoPlaceLeftError extends Error {
  constructor() {
    super('no free place left in the offer');
    this.name = 'NoPlaceLeftError';
  }
}

interface Waiting {
  lead: NewLead;
  resolve(result: InsertLeadResult): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

export type LeadInserter = (lead: NewLead) => Promise<InsertLeadResult>;

export interface LeadInserterOptions {
  maxBatchSize?: number;
  maxConcurrentBatches?: number;
  /** A lead that finds no free batch slot for this long gets a 503 (the database hangs). */
  maxWaitMs?: number;
  /** Leads waiting beyond this many get a 503 at once instead of queueing without end. */
  maxWaiting?: number;
  /** The offer's start and cap (decision 047); by default no cap, places taken from the first lead. */
  places?: PlaceRules;
  /** By default Meta is off: no conversion upload is stored. */
  intake?: IntakeRules;
}

/**
 * Group commit for lead intake: a lead that arrives while every batch slot is busy waits
 * for the next free slot, and all leads waiting then go in one statement. Under light
 * load a lead goes alone and at once; under heavy load one statement, one round trip and
 * one commit serve many leads, which is what lets one API process take many leads per
 * second. A phone appears at most once per batch (its window is claimed row by row).
 */
export function createLeadInserter(
  db: Knex,
  {
    maxBatchSize = 100,
    maxConcurrentBatches = 4,
    maxWaitMs = 10_000,
    maxWaiting = 5_000,
    places = { startsAt: null, placesTotal: null },
    intake = { metaConversions: false },
  }: LeadInserterOptions = {},
): LeadInserter {
  const settle = (item: Waiting, result: InsertLeadResult | null | undefined) =>
    result ? item.resolve(result) : item.reject(new NoPlaceLeftError());

  let waiting: Waiting[] = [];
  let running = 0;
  let flushScheduled = false;

  /** Leads that arrive in the same turn of the event loop share the first batch. */
  function scheduleFlush() {
    if (flushScheduled || running >= maxConcurrentBatches || waiting.length === 0) return;
    flushScheduled = true;
    setImmediate(flush);
  }

  function flush() {
    flushScheduled = false;
    while (running < maxConcurrentBatches && waiting.length > 0) {
      const batch = takeBatch();
      running += 1;
      void runBatch(batch).finally(() => {
        running -= 1;
        scheduleFlush();
      });
    }
  }

  function takeBatch(): Waiting[] {
    const phones = new Set<string>();
    const batch: Waiting[] = [];
    const later: Waiting[] = [];
    for (const item of waiting) {
      const phone = item.lead.request.telefono;
      if (batch.length < maxBatchSize && !phones.has(phone)) {
        phones.add(phone);
        clearTimeout(item.timer);
        batch.push(item);
      } else {
        later.push(item);
      }
    }
    waiting = later;
    return batch;
  }

  async function runBatch(batch: Waiting[]) {
    try {
      const results = await insertLeads(
        db,
        batch.map(({ lead }) => lead),
        places,
        intake,
      );
      batch.forEach((item, index) => settle(item, results[index]));
    } catch (error) {
      if (batch.length === 1 || isDatabaseUnavailable(error)) {
        for (const item of batch) item.reject(error);
        return;
      }
      // One lead the database refuses must not fail the others: each goes alone, one
      // after the other (in this slot), so a failing batch does not flood the pool.
      for (const item of batch) {
        await insertLeads(db, [item.lead], places, intake).then(([result]) => settle(item, result), item.reject);
      }
    }
  }

  function giveUp(item: Waiting) {
    waiting = waiting.filter((other) => other !== item);
    item.reject(new DatabaseBusyError(`no lead insert slot within ${maxWaitMs} ms`));
  }

  return (lead) =>
    new Promise<InsertLeadResult>((resolve, reject) => {
      if (waiting.length >= maxWaiting) {
        reject(new DatabaseBusyError(`${waiting.length} leads already waiting for the database`));
        return;
      }
      const item: Waiting = { lead, resolve, reject, timer: setTimeout(() => giveUp(item), maxWaitMs) };
      waiting.push(item);
      scheduleFlush();
    });
}
