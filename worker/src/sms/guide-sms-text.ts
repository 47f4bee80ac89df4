import { greetingName } from '@guida/shared/greeting-name';
import { guideDelivery } from '@guida/shared/messages';
import { SINGLE_SEGMENT_LENGTH, gsm7Length, toGsm7Name } from './gsm7';

/**
 * The SMS with the personal link. It greets the visitor by first name when `nome` is a
 * plain name (greetingName: no other visitor text ever reaches an SMS) and the whole text
 * still fits one GSM-7 segment, and drops the greeting otherwise.
 */
export function guideSmsText(options: { nome: string; link: string; validDays: number }): string {
  // GSM-7 has the straight apostrophe only.
  const greeting = (greetingName(options.nome) ?? '').replace(/’/g, "'");
  const name = toGsm7Name(greeting);
  // A name that lost letters on the way to GSM-7 (Łukasz) would greet someone else.
  if (name.length >= 2 && name.length === [...greeting].length) {
    const text = guideDelivery.smsWithName(name, options.link, options.validDays);
    const length = gsm7Length(text);
    if (length !== null && length <= SINGLE_SEGMENT_LENGTH) return text;
  }
  return guideDelivery.smsWithoutName(options.link, options.validDays);
}
