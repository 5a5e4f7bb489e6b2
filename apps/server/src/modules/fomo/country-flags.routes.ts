import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/** The 4:3 country flags of the flag-icons package (MIT), named by lower-case ISO 3166-1 code. */
export const COUNTRY_FLAGS_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve('flag-icons/package.json')),
  'flags',
  '4x3',
);

/**
 * Country flags for the social-proof popups, served by us (architecture §5.7: no third-party request
 * before the visitor interacts): `/assets/flags/{cc}.svg`.
 */
export const countryFlagRoutes: FastifyPluginAsync = async (app) => {
  await app.register(fastifyStatic, {
    root: COUNTRY_FLAGS_DIR,
    prefix: '/assets/flags/',
    decorateReply: false,
    maxAge: '30d',
    immutable: true,
    // Only the flag files themselves: no directory listing, no dotfiles.
    index: false,
    allowedPath: (pathname) => /^\/[a-z]{2}\.svg$/.test(pathname),
  });
};
