/** The proof-of-work challenge the public forms ask for when traffic looks wrong (decision 028). */
export { challengeRouter } from './challenge.routes';
export { CHALLENGE_FIELD, requireChallengeWhenBusy } from './require-challenge';
