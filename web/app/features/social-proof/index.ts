export { SocialProof } from './social-proof';
export { useLiveStats } from './use-live-stats';
