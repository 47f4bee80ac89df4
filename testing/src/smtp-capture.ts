import { SMTPServer } from 'smtp-server';
import { waitFor } from './wait-for';

export interface CapturedEmail {
  from: string;
  to: string[];
  subject: string;
  /** The body, decoded (plain-text emails). */
  text: string;
  /** The raw RFC 5322 message. */
  raw: string;
}

/** Enough MIME for our plain-text emails: headers, then a quoted-printable or base64 body. */
function decodePlainText(raw: string) {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    text = Buffer.from(bytes, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    text = Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
  }
  return { subject: header('Subject'), text: text.replace(/\r\n/g, '\n') };
}

export interface SmtpCapture {
  url: string;
  emails: CapturedEmail[];
  /** Rejects the next `count` messages with this SMTP code (e.g. 451 transient, 550 permanent). */
  rejectNext(count: number, code: number): void;
  /** Answers every following message only after `ms` (0 = at once). */
  respondAfter(ms: number): void;
  waitForEmails(count: number, timeoutMs?: number): Promise<CapturedEmail[]>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const emails: CapturedEmail[] = [];
  const rejections: number[] = [];
  let delayMs = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      const answer = () => {
        const code = rejections.shift();
        if (code) {
          const error = Object.assign(new Error(`rejected with ${code}`), { responseCode: code });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        emails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          ...decodePlainText(raw),
          raw,
        });
        callback();
      };
      stream.on('end', () => setTimeout(answer, delayMs));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (!address || typeof address !== 'object') throw new Error('SMTP capture did not start');

  return {
    url: `smtp://127.0.0.1:${address.port}`,
    emails,
    rejectNext(count, code) {
      for (let i = 0; i < count; i += 1) rejections.push(code);
    },
    respondAfter: (ms) => {
      delayMs = ms;
    },
    waitForEmails: (count, timeoutMs = 15_000) =>
      waitFor(() => emails.length >= count && emails.slice(0, count), { timeoutMs, what: `${count} emails` }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
