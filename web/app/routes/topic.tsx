import { data } from 'react-router';
import { ArticleBody } from '../components/article-body';
import { ArticlePage } from '../layouts/article-page';
import { GuideRequestSection } from '../layouts/guide-request-section';
import { topicPages } from '../content/topics';
import { SocialProof } from '../features/social-proof';
import { metaTags } from '../lib/seo';
import { pageSeo, pathOf } from '../seo.server';
import type { Route } from './+types/topic';

/** A topic article (gold, ETF, signals, ...), one route per path of the spec. */
export function loader({ url }: Route.LoaderArgs) {
  const path = pathOf(url);
  const topic = topicPages.find((page) => page.path === path);
  if (!topic) throw data(null, { status: 404 });
  const related = topic.related.flatMap((relatedPath) => {
    const page = topicPages.find((candidate) => candidate.path === relatedPath);
    return page ? [{ path: page.path, title: page.heading }] : [];
  });
  return { topic, related, seo: pageSeo(path, topic) };
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.seo);

export default function Topic({ loaderData }: Route.ComponentProps) {
  const { topic, related } = loaderData;
  return (
    <>
      <ArticlePage heading={topic.heading} intro={topic.intro} related={related}>
        <ArticleBody sections={topic.sections} />
        <GuideRequestSection title={topic.cta.title} text={topic.cta.text} ebookType={topic.ebookType} landingPath={topic.path} />
      </ArticlePage>
      {/* A Swiss article's popup tells of Swiss deliveries only. */}
      <SocialProof path={topic.path} pageType="article" isSwiss={topic.country === 'CH'} />
    </>
  );
}
