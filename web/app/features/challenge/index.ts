export { ChallengeSlot } from './challenge-slot';
export { useChallengedSubmission } from './use-challenged-submission';
