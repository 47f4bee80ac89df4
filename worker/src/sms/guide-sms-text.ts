import { guideDelivery } from '@guida/shared/messages';
import { SINGLE_SEGMENT_LENGTH, gsm7Length, toGsm7Name } from './gsm7';

/**
 * The SMS with the personal link. It greets the visitor by first name when the whole
 * text still fits one GSM-7 segment, and drops the greeting otherwise.
 */
export function guideSmsText(options: { nome: string; link: string; validDays: number }): string {
  const name = toGsm7Name(options.nome);
  if (name.length >= 2) {
    const text = guideDelivery.smsWithName(name, options.link, options.validDays);
    const length = gsm7Length(text);
    if (length !== null && length <= SINGLE_SEGMENT_LENGTH) return text;
  }
  return guideDelivery.smsWithoutName(options.link, options.validDays);
}
