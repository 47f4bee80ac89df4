export { metaConversionsSettings } from './meta-settings';
