/** What the visitor is told about the SMS: who it comes from and how long its link lasts. */
export interface SmsCopy {
  /** The sender the phone shows (TWILIO_FROM); null when the provider chooses it. */
  sender: string | null;
  /** GUIDE_LINK_TTL_DAYS. */
  linkDays: number;
  /** SMS_HELD_EMAIL_AFTER_MINUTES: a delayed SMS's link goes by email after these minutes. */
  heldEmailMinutes: number;
}

/** "1 giorno", "30 giorni". */
export const days = (count: number) => (count === 1 ? '1 giorno' : `${count} giorni`);

/** "1 minuto", "10 minuti". */
export const minutes = (count: number) => (count === 1 ? '1 minuto' : `${count} minuti`);
