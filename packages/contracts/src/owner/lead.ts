import { z } from 'zod';
import { Id, IsoDateTime, Name, Paginated, PaginationQuery } from '../primitives';

export const LeadCreate = z.strictObject({
  name: Name,
  email: z.email().max(254).nullable().optional(),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{6,24}$/, 'a phone number is digits, spaces, brackets and dashes')
    .nullable()
    .optional(),
  /** Overrides the funnel's isDeadlineExceptionOn for this lead; null follows the funnel. */
  deadlineExceptionOn: z.boolean().nullable().optional(),
});
export type LeadCreate = z.infer<typeof LeadCreate>;

export const LeadUpdate = LeadCreate.partial();
export type LeadUpdate = z.infer<typeof LeadUpdate>;

export const MAX_LEADS_PER_IMPORT = 5000;
export const LeadImport = z.strictObject({ leads: z.array(LeadCreate).min(1).max(MAX_LEADS_PER_IMPORT) });
export type LeadImport = z.infer<typeof LeadImport>;

export const Lead = z.object({
  id: Id,
  funnelId: Id,
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  currentPageId: Id.nullable(),
  deadlineAt: IsoDateTime.nullable(),
  deadlineExceptionOn: z.boolean().nullable(),
  createdAt: IsoDateTime,
});
export type Lead = z.infer<typeof Lead>;

/** The token is shown once, here: only its hash is stored (architecture §5.5). */
export const LeadCreated = z.object({ lead: Lead, token: z.string(), url: z.string() });
export type LeadCreated = z.infer<typeof LeadCreated>;

export const LeadImported = z.object({ count: z.number().int(), leads: z.array(LeadCreated) });
export type LeadImported = z.infer<typeof LeadImported>;

export const LeadList = Paginated(Lead);
export type LeadList = z.infer<typeof LeadList>;

/**
 * A page of a funnel's leads (keyset paging: `cursor` is the last answer's `nextCursor`). `search`
 * finds leads whose name has a word starting with it, or whose e-mail or phone starts with it (case
 * and accents ignored, phone by its digits); `pageId` keeps the leads whose current page it is.
 */
export const LeadListQuery = PaginationQuery.extend({
  search: z.string().trim().min(1).max(120).optional(),
  pageId: Id.optional(),
  order: z.enum(['newest', 'oldest']).default('oldest'),
});
export type LeadListQuery = z.infer<typeof LeadListQuery>;
