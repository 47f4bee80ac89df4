import { italianTopicPages } from './topics-italy';
import { swissTopicPages } from './topics-switzerland';
import type { TopicPage } from './types';

export const topicPages: TopicPage[] = [...italianTopicPages, ...swissTopicPages];
