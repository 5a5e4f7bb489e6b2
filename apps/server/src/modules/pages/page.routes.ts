import { IdParams, Page, PageCreate, PageUpdate } from '@embudo/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownerOf } from '../auth/owner-auth';
import type { PageService } from './page.service';

export const pageRoutes: FastifyPluginAsyncZod<{ pages: PageService }> = async (app, { pages }) => {
  const tags = ['pages'];
  const { pagesPerFunnel, richTextChars, funnelContentChars } = pages.limits;
  // The limits of this server, for the OpenAPI document: a save beyond one is refused, writing nothing.
  const limits =
    `A funnel has at most ${pagesPerFunnel} pages (MAX_PAGES_PER_FUNNEL; a page more is a 409). ` +
    `A rich-text field (topline, headline, subheadline, buttonCopy) holds at most ${richTextChars} ` +
    `characters once sanitised (MAX_RICH_TEXT_CHARS), and all of a funnel's pages together hold at most ` +
    `${funnelContentChars} characters of text, counting rich text, links and video fields ` +
    `(MAX_FUNNEL_CONTENT_CHARS); more is a 400 naming the limit.`;
  app.get(
    '/funnels/:id/pages',
    { schema: { tags, params: IdParams, response: { 200: z.array(Page) } } },
    (req) => pages.list(ownerOf(req), req.params.id),
  );
  app.post(
    '/funnels/:id/pages',
    {
      schema: {
        tags,
        description: `Appends a page to the funnel. ${limits}`,
        params: IdParams,
        body: PageCreate,
        response: { 201: Page },
      },
    },
    async (req, reply) => reply.status(201).send(await pages.create(ownerOf(req), req.params.id, req.body)),
  );
  app.get('/pages/:id', { schema: { tags, params: IdParams, response: { 200: Page } } }, (req) =>
    pages.get(ownerOf(req), req.params.id),
  );
  app.patch(
    '/pages/:id',
    {
      schema: {
        tags,
        description: `Changes the fields given. ${limits}`,
        params: IdParams,
        body: PageUpdate,
        response: { 200: Page },
      },
    },
    (req) => pages.update(ownerOf(req), req.params.id, req.body),
  );
  app.delete('/pages/:id', { schema: { tags, params: IdParams } }, async (req, reply) => {
    await pages.remove(ownerOf(req), req.params.id);
    return reply.status(204).send();
  });
  return Promise.resolve();
};
