import { z } from "zod";
import type { DashRole } from "../roles";
import { invalid } from "../validation-messages";

/**
 * Messaging: announcements from administrators to an audience, and direct conversations between
 * two people (a parent and their child's Guide or the school office, staff with staff, a student
 * with their Guide when their school allows it). Who may write to whom is decided by the server.
 */

/** Longest message or announcement, in characters of its HTML. */
export const MAX_MESSAGE_HTML_LENGTH = 20_000;
export const MAX_ANNOUNCEMENT_HTML_LENGTH = 50_000;
export const MAX_ANNOUNCEMENT_TITLE_LENGTH = 200;
/** Pictures one message may carry, and how large each may be. */
export const MAX_PICTURES_PER_MESSAGE = 4;
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;
/** The kinds of picture a message takes, told by their bytes (never their name). */
export const PICTURE_KINDS = ["png", "jpeg", "webp", "gif"] as const;
export const PICTURE_CONTENT_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
/** Messages a thread answers at a time; older ones come with `before`. */
export const THREAD_PAGE_SIZE = 50;
/** Base64 length of the largest picture. */
const MAX_PICTURE_BASE64_LENGTH = Math.ceil(MAX_PICTURE_BYTES / 3) * 4;

const id = z.string().trim().min(1).max(200);

/** How a contact is related to the caller. */
export const CONTACT_RELATIONS = ["guide", "office", "family", "student", "staff"] as const;
export type ContactRelation = (typeof CONTACT_RELATIONS)[number];

/** Someone the caller may write to, with why (a Guide of their child, the office of a school…). */
export interface Contact {
  id: string;
  name: string;
  /** Each way they are related: `about` names the child or school it is through, when there is one. */
  relations: { relation: ContactRelation; about: string | null }[];
  /** Their conversation with the caller, when there is one already. */
  conversationId: string | null;
}

/** GET /api/messaging/contacts */
export const contactsQuerySchema = z.object({
  search: z.string().trim().max(200, invalid("searchTooLong")).default(""),
  limit: z.coerce.number().int().min(1).max(100).default(30),
});
export type ContactsQuery = z.output<typeof contactsQuerySchema>;

export interface ContactList {
  contacts: Contact[];
}

/** A member of a conversation, as the caller sees them. */
export interface ConversationMember {
  id: string;
  name: string;
  /** Their Dash roles, highest first. */
  roles: DashRole[];
  /** The children (of a parent or guardian) the caller may see, by name: "Parent of Ava Johnson". */
  children: string[];
}

/** A conversation in a list: who else is in it, its last message and what the caller has not read. */
export interface ConversationSummary {
  id: string;
  /** Everyone but the caller. */
  others: ConversationMember[];
  lastMessage: {
    authorName: string;
    isMine: boolean;
    /** The start of its text, without markup. */
    preview: string;
    pictures: number;
    at: string;
  } | null;
  unread: number;
}

/**
 * Why the caller cannot write (in a conversation, or start one), which the page says in its words:
 * their role's rule (`family`, `guide`, `administrator`, `student`: they no longer reach everyone
 * in it), a role that writes to no one (`role`), a student whose school keeps messages off
 * (`studentsOff`), viewing Dash as someone (`viewingAs`), or no one to write to (`noContacts`).
 */
export const WRITING_REFUSALS = [
  "family",
  "guide",
  "administrator",
  "student",
  "role",
  "studentsOff",
  "viewingAs",
  "noContacts",
] as const;
export type WritingRefusal = (typeof WRITING_REFUSALS)[number];

/** GET /api/messaging/conversations: the latest `limit` conversations. */
export const inboxQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(300).default(50) });

export interface Inbox {
  conversations: ConversationSummary[];
  /** Conversations in all, listed or not. */
  total: number;
  /** Unread messages over all the conversations. */
  unreadMessages: number;
  /** Whether the caller may start a conversation (they have someone to write to and write as themself). */
  canStart: boolean;
  /** Why they may not, when they may not. */
  startRefusal: WritingRefusal | null;
}

/** GET /api/messaging/unread: the shell's messages icon. */
export interface UnreadSummary {
  /** Unread messages and announcements. */
  unread: number;
}

export interface MessagePicture {
  /** Its place in the message, in its address. */
  index: number;
  name: string;
  contentType: string;
  bytes: number;
  url: string;
}

export interface ThreadMessage {
  id: string;
  authorId: string;
  authorName: string;
  isMine: boolean;
  /** Sanitised HTML; empty when the message was removed with its author's data. */
  bodyHtml: string;
  pictures: MessagePicture[];
  createdAt: string;
}

/** GET /api/messaging/conversations/:id: the newest messages (oldest first), or those before `before`. */
export interface Thread {
  id: string;
  others: ConversationMember[];
  messages: ThreadMessage[];
  /** Older messages are left. */
  hasOlder: boolean;
  /** When the caller last read it, before this visit marked it read. */
  lastReadAt: string | null;
  canWrite: boolean;
  writingRefusal: WritingRefusal | null;
}

export const threadQuerySchema = z.object({
  /** A message's id: only messages older than it. */
  before: id.optional(),
});

/** A picture sent with a message: its name and its bytes in base64. */
export const pictureUploadSchema = z.object({
  name: z.string().trim().min(1).max(200),
  data: z
    .base64({ message: invalid("pictureNotBase64") })
    .max(MAX_PICTURE_BASE64_LENGTH, invalid("pictureTooLarge")),
});

/**
 * POST /api/messaging/messages: a message to a conversation the caller is in, or to a person (their
 * conversation with them, begun when there is none). Text, pictures or both.
 */
export const sendMessageSchema = z
  .object({
    conversationId: id.optional(),
    recipientId: id.optional(),
    bodyHtml: z.string().max(MAX_MESSAGE_HTML_LENGTH, invalid("messageTooLong")).default(""),
    pictures: z
      .array(pictureUploadSchema)
      .max(MAX_PICTURES_PER_MESSAGE, invalid("tooManyPictures"))
      .default([]),
  })
  .superRefine((input, context) => {
    if (Boolean(input.conversationId) === Boolean(input.recipientId))
      context.addIssue({
        code: "custom",
        path: ["recipientId"],
        message: invalid("conversationOrRecipient"),
      });
  });
export type SendMessage = z.input<typeof sendMessageSchema>;

export interface SentMessage {
  conversationId: string;
  message: ThreadMessage;
}

/** POST /api/messaging/conversations/:id/read */
export interface ReadResult {
  unread: number;
}

// ---------------------------------------------------------------------------------------------
// Announcements.

export const AUDIENCE_KINDS = ["school", "grade", "class", "class_parents", "staff"] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

/**
 * Who an announcement is for: everyone of a school or district (its students, their families and
 * its staff), a grade of a school (its students and their families), a class (its students and
 * Guides), the parents and guardians of a class, or the staff of a school or district.
 */
export const audienceSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("school"), orgId: id }),
    z.object({ kind: z.literal("grade"), orgId: id, grade: z.string().trim().min(1).max(20) }),
    z.object({ kind: z.literal("class"), classId: id }),
    z.object({ kind: z.literal("class_parents"), classId: id }),
    z.object({ kind: z.literal("staff"), orgId: id }),
  ],
  { error: invalid("chooseAudience") },
);
export type Audience = z.infer<typeof audienceSchema>;

/** GET /api/messaging/admin/audience-size: the audience's fields as a query. */
export const audienceQuerySchema = z
  .object({
    kind: z.enum(AUDIENCE_KINDS, { message: invalid("chooseAudience") }),
    orgId: id.optional(),
    grade: z.string().trim().min(1).max(20).optional(),
    classId: id.optional(),
  })
  .transform((query, context) => {
    const parsed = audienceSchema.safeParse(query);
    if (!parsed.success) {
      context.addIssue({ code: "custom", message: invalid("chooseAudience") });
      return z.NEVER;
    }
    return parsed.data;
  });

export interface AudienceSize {
  recipients: number;
}

/** The audience with the names of its school, district or class, for showing. */
export type NamedAudience = Audience & { orgName?: string | null; className?: string | null };

/** GET /api/messaging/admin/audiences: what an announcement can be sent to. */
export interface AudienceChoices {
  /** Districts and schools, the districts first, each with its students' grades. */
  organisations: { id: string; name: string; type: string; grades: string[] }[];
  /** The active classes of `schoolId` (none without it). */
  classes: { id: string; title: string; schoolId: string }[];
}

export const audienceChoicesQuerySchema = z.object({ schoolId: id.optional() });

/** POST /api/messaging/admin/announcements: sent now, or at `scheduledFor`. */
export const createAnnouncementSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, invalid("announcementTitleRequired"))
    .max(MAX_ANNOUNCEMENT_TITLE_LENGTH, invalid("announcementTitleTooLong")),
  bodyHtml: z.string().max(MAX_ANNOUNCEMENT_HTML_LENGTH, invalid("messageTooLong")),
  audience: audienceSchema,
  scheduledFor: z.iso
    .datetime({ offset: true, message: invalid("scheduleDateTime") })
    .nullable()
    .default(null),
});
export type CreateAnnouncement = z.input<typeof createAnnouncementSchema>;

export const ANNOUNCEMENT_STATUSES = ["scheduled", "sent", "cancelled"] as const;
export type AnnouncementStatus = (typeof ANNOUNCEMENT_STATUSES)[number];

/** An announcement as administrators see it, with how far it reached. */
export interface AdminAnnouncement {
  id: string;
  title: string;
  bodyHtml: string;
  audience: NamedAudience;
  status: AnnouncementStatus;
  scheduledFor: string;
  sentAt: string | null;
  createdBy: string;
  createdAt: string;
  cancelledBy: string | null;
  cancelledAt: string | null;
  /** People it reached (null until sent), and how many of them read it. */
  recipients: number | null;
  read: number;
}

/** GET /api/messaging/admin/announcements */
export const adminAnnouncementsQuerySchema = z.object({
  status: z.enum(ANNOUNCEMENT_STATUSES).default("sent"),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type AdminAnnouncementsQuery = z.output<typeof adminAnnouncementsQuerySchema>;

export interface AdminAnnouncementPage {
  items: AdminAnnouncement[];
  total: number;
}

/** An announcement as a recipient reads it. */
export interface ReceivedAnnouncement {
  id: string;
  title: string;
  bodyHtml: string;
  senderName: string;
  sentAt: string;
  readAt: string | null;
}

/** GET /api/messaging/announcements */
export const announcementsQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export type AnnouncementsQuery = z.output<typeof announcementsQuerySchema>;

export interface ReceivedAnnouncementPage {
  items: ReceivedAnnouncement[];
  total: number;
  unread: number;
}

// ---------------------------------------------------------------------------------------------
// A school's rules.

/** GET /api/messaging/admin/settings: per school, whether its students may write to their Guides. */
export interface SchoolMessagingSetting {
  schoolId: string;
  schoolName: string;
  studentsMayWrite: boolean;
  updatedBy: string | null;
  updatedAt: string | null;
}

export interface MessagingSettings {
  schools: SchoolMessagingSetting[];
}

/** PUT /api/messaging/admin/settings/:schoolId */
export const schoolSettingSchema = z.strictObject({ studentsMayWrite: z.boolean() });
