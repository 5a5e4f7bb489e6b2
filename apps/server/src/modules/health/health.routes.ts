import { ROUTES } from '@embudo/contracts';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db';
import { registerRoutes } from '../../http/contract-routes';

/** 200 only when the database answers; 503 otherwise, so a load balancer takes the process out. */
export const healthRoutes: FastifyPluginAsyncZod<{ db: Db; dialect: string }> = async (
  app,
  { db, dialect },
) => {
  registerRoutes(
    app,
    { health: ROUTES.operator.health },
    {
      health: async (req, reply) => {
        try {
          await sql`select 1`.execute(db);
          return { status: 'ok' as const, database: dialect };
        } catch (error) {
          req.log.warn({ err: error }, 'health check: database did not answer');
          return reply.status(503).send({ status: 'unavailable' as const, database: dialect });
        }
      },
    },
  );
  return Promise.resolve();
};
