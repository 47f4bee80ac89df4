import axios from 'axios';
import type { Knex } from 'knex';
import { ALERT_TITLES, alertDetailLines, alertTexts, formatAlertTime, type AlertIncident, type AlertKind } from '../../alerts';
import type { Logger } from '../logger';
import type { Mailer } from '../mailer';
import { standardWebhookHeaders } from '../webhook-signature';
import type { AlertChannel } from './evaluate-alerts';

export interface AlertWebhookSettings {
  url: string;
  key: Buffer;
  timeoutMs: number;
}

export interface AlertNotifierDeps {
  db: Knex;
  logger: Logger;
  mailer: Mailer;
  emailTo: readonly string[] | undefined;
  webhook: AlertWebhookSettings | undefined;
  /** The admin's dashboard, named in the emails. */
  adminUrl: string;
  /** Only the notifications of these kinds (the API sends its own: no worker may be there to send them); unset = all. */
  kinds?: readonly AlertKind[];
}

/**
 * A claimed notification is not due again before this; it doubles with each attempt, up
 * to an hour. Longer than a send can last (the SMTP client's timeouts, the webhook's),
 * so a second sender never takes a notification the first one is still sending.
 */
const FIRST_RETRY_SECONDS = 120;
const LAST_RETRY_SECONDS = 3600;
const BATCH = 20;

interface Claimed {
  id: number;
  incident_id: number;
  event: 'opened' | 'resolved';
  channel: AlertChannel;
}

/**
 * Sends the notifications that are due, oldest first, each once it is claimed; one that
 * fails stays in alert_notifications and is tried again later (see FIRST_RETRY_SECONDS),
 * however long the channel stays down. An incident's "resolved" goes only after its
 * "opened" went, on each channel.
 */
export function createAlertNotifier({ db, logger, mailer, emailTo, webhook, adminUrl, kinds }: AlertNotifierDeps) {
  const channels = [...(emailTo ? ['email'] : []), ...(webhook ? ['webhook'] : [])];

  async function claimDue(now: Date) {
    const { rows } = await db.raw<{ rows: Claimed[] }>(
      `UPDATE alert_notifications n SET attempts = attempts + 1,
         next_attempt_at = CAST(:now AS timestamptz)
           + make_interval(secs => least(:first * power(2, n.attempts), :last))
       WHERE n.id IN (
         SELECT d.id FROM alert_notifications d
         WHERE d.sent_at IS NULL AND d.next_attempt_at <= :now AND d.channel = ANY(:channels)
           AND (CAST(:kinds AS text[]) IS NULL
             OR d.incident_id IN (SELECT i.id FROM alert_incidents i WHERE i.kind = ANY(CAST(:kinds AS text[]))))
           AND (d.event = 'opened' OR NOT EXISTS (
             SELECT 1 FROM alert_notifications o
             WHERE o.incident_id = d.incident_id AND o.channel = d.channel AND o.event = 'opened' AND o.sent_at IS NULL))
         ORDER BY d.id LIMIT :batch FOR UPDATE SKIP LOCKED)
       RETURNING n.id, n.incident_id, n.event, n.channel`,
      { now, channels, kinds: kinds ? [...kinds] : null, first: FIRST_RETRY_SECONDS, last: LAST_RETRY_SECONDS, batch: BATCH },
    );
    return rows.sort((a, b) => a.id - b.id);
  }

  async function loadIncident(id: number): Promise<AlertIncident> {
    const row = await db('alert_incidents')
      .where({ id })
      .first<{ id: number; kind: AlertIncident['kind']; opened_at: Date; resolved_at: Date | null; details: AlertIncident['details'] }>();
    return {
      id: row.id,
      kind: row.kind,
      openedAt: row.opened_at.toISOString(),
      resolvedAt: row.resolved_at?.toISOString() ?? null,
      details: row.details,
    } as AlertIncident;
  }

  function emailOf(incident: AlertIncident, event: Claimed['event']) {
    const opened = event === 'opened';
    const lines = [
      opened ? alertTexts.emailOpenedIntro : alertTexts.emailResolvedIntro,
      ALERT_TITLES[incident.kind],
      '',
      `${alertTexts.since} ${formatAlertTime(incident.openedAt)}.`,
      ...(incident.resolvedAt && !opened ? [`${alertTexts.resolvedAt} ${formatAlertTime(incident.resolvedAt)}.`] : []),
      '',
      alertTexts.emailLastMeasures,
      ...alertDetailLines(incident),
      '',
      `${alertTexts.emailAdminLink} ${adminUrl}`,
      ...(opened ? ['', alertTexts.emailFooter] : []),
    ];
    return {
      to: emailTo!.join(', '),
      subject: opened ? alertTexts.emailOpenedSubject(incident.kind) : alertTexts.emailResolvedSubject(incident.kind),
      text: `${lines.join('\n')}\n`,
    };
  }

  async function postWebhook(incident: AlertIncident, event: Claimed['event'], now: Date) {
    const settings = webhook!;
    // The same id on every attempt: receivers drop repeats by it.
    const id = `alert-${incident.id}-${event}`;
    const body = JSON.stringify({
      type: `alert.${event}`,
      timestamp: now.toISOString(),
      data: { ...incident, title: ALERT_TITLES[incident.kind] },
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const response = await axios.post(settings.url, body, {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'guida-finanza-webhook/1',
        ...standardWebhookHeaders([settings.key], id, timestamp, body),
      },
      timeout: settings.timeoutMs,
      maxRedirects: 0,
      validateStatus: () => true,
      maxContentLength: 64 * 1024,
    });
    if (response.status < 200 || response.status >= 300) throw new Error(`webhook answered HTTP ${response.status}`);
  }

  /** Sends what is due at `now`; returns how many went and how many failed. */
  return async function sendAlertNotifications(now: Date) {
    let sent = 0;
    let failed = 0;
    for (let batch = await claimDue(now); batch.length > 0; batch = await claimDue(now)) {
      for (const notification of batch) {
        const incident = await loadIncident(notification.incident_id);
        try {
          if (notification.channel === 'email') await mailer.send(emailOf(incident, notification.event));
          else await postWebhook(incident, notification.event, now);
          await db('alert_notifications').where({ id: notification.id }).update({ sent_at: now, last_error: null });
          sent += 1;
        } catch (error) {
          const message = (error as Error).message.slice(0, 500);
          await db('alert_notifications').where({ id: notification.id }).update({ last_error: message });
          logger.warn(
            { alert: incident.kind, event: notification.event, channel: notification.channel, err: message },
            'alert notification failed; it is tried again later',
          );
          failed += 1;
        }
      }
    }
    return { sent, failed };
  };
}
