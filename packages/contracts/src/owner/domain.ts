import { z } from 'zod';
import { Hostname, Id, IsoDateTime } from '../primitives';

export const DomainCreate = z.strictObject({ host: Hostname });
export type DomainCreate = z.infer<typeof DomainCreate>;

export const Domain = z.object({ id: Id, host: z.string(), createdAt: IsoDateTime });
export type Domain = z.infer<typeof Domain>;
