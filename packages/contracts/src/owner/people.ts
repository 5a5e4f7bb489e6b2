import { z } from 'zod';
import { Language } from '../enums';
import { Id, IsoDateTime, Name, TimeZone } from '../primitives';
import { AccountSlug } from './account';

/**
 * What a member of an account may do (architecture §7): `owner` everything, including members, API
 * keys, domains and the pixel token; `editor` funnels, pages and leads; `viewer` reads only. An API
 * key acts as its account's owner.
 */
export const ROLES = ['viewer', 'editor', 'owner'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Whether `role` includes everything `needed` may do (viewer < editor < owner). */
export function roleIncludes(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

export const MIN_PASSWORD_LENGTH = 10;
/** scrypt reads all of it; a cap keeps one sign-in from costing more than it should. */
export const MAX_PASSWORD_LENGTH = 200;

/**
 * A new password. The server also refuses common ones: a 400 naming the field, "this password is too
 * common".
 */
export const NewPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `at least ${String(MIN_PASSWORD_LENGTH)} characters`)
  .max(MAX_PASSWORD_LENGTH);

export const Email = z.email().trim().toLowerCase().max(254);

export const SignIn = z.strictObject({
  email: Email,
  // Any typed password is checked (and hashed) the same way: no length rule tells who exists.
  password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
});
export type SignIn = z.infer<typeof SignIn>;

/** The first run: no user exists yet, and this creates the first owner and their account. */
export const FirstRunSetup = z.strictObject({
  name: Name,
  email: Email,
  password: NewPassword,
  accountName: Name,
  accountSlug: AccountSlug,
  language: Language.optional(),
  /** The account's time zone; the Studio sends the browser's. */
  timeZone: TimeZone.optional(),
});
export type FirstRunSetup = z.infer<typeof FirstRunSetup>;

export const SetupState = z.object({ needed: z.boolean() });
export type SetupState = z.infer<typeof SetupState>;

export const User = z.object({
  id: Id,
  email: z.string(),
  name: z.string(),
  /** The Studio's language by the user's choice; null follows the browser. */
  language: Language.nullable(),
});
export type User = z.infer<typeof User>;

export const AccountMembership = z.object({
  account: z.object({ id: Id, slug: z.string(), name: z.string() }),
  role: Role,
});
export type AccountMembership = z.infer<typeof AccountMembership>;

/** Who is signed in, the accounts they belong to, and the one they are working in. */
export const StudioSession = z.object({
  user: User,
  memberships: z.array(AccountMembership),
  currentAccountId: Id,
  role: Role,
});
export type StudioSession = z.infer<typeof StudioSession>;

export const SwitchAccount = z.strictObject({ accountId: Id });
export type SwitchAccount = z.infer<typeof SwitchAccount>;

export const ProfileUpdate = z.strictObject({
  name: Name.optional(),
  language: Language.nullable().optional(),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;

/** Changing the password signs out every other session of the user. */
export const PasswordChange = z.strictObject({
  currentPassword: z.string().min(1).max(MAX_PASSWORD_LENGTH),
  newPassword: NewPassword,
});
export type PasswordChange = z.infer<typeof PasswordChange>;

export const Member = z.object({
  userId: Id,
  name: z.string(),
  email: z.string(),
  role: Role,
  joinedAt: IsoDateTime,
});
export type Member = z.infer<typeof Member>;

export const MemberUpdate = z.strictObject({ role: Role });
export type MemberUpdate = z.infer<typeof MemberUpdate>;

export const INVITATION_TTL_DAYS = 7;

export const InvitationCreate = z.strictObject({
  role: Role,
  /** Only a note for the owner: whoever opens the link first may accept it. */
  email: Email.nullable().optional(),
});
export type InvitationCreate = z.infer<typeof InvitationCreate>;

export const Invitation = z.object({
  id: Id,
  role: Role,
  email: z.string().nullable(),
  createdAt: IsoDateTime,
  expiresAt: IsoDateTime,
});
export type Invitation = z.infer<typeof Invitation>;

/** The link is shown once, here: only its token's hash is stored (architecture §5.5). */
export const InvitationCreated = z.object({ invitation: Invitation, url: z.string() });
export type InvitationCreated = z.infer<typeof InvitationCreated>;

export const InvitationTokenParams = z.strictObject({ token: z.string().min(20).max(200) });

/** What the person who opens an invitation link sees before accepting. */
export const InvitationPreview = z.object({
  accountName: z.string(),
  role: Role,
  email: z.string().nullable(),
  expiresAt: IsoDateTime,
});
export type InvitationPreview = z.infer<typeof InvitationPreview>;

/**
 * Accepting: a signed-in user sends nothing and joins with their own user; anyone else creates their
 * user here (an e-mail that already has a user must sign in first: 409).
 */
export const InvitationAccept = z.strictObject({ name: Name, email: Email, password: NewPassword }).nullish();
export type InvitationAccept = z.infer<typeof InvitationAccept>;
