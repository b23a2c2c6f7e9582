import { useQuery } from "@tanstack/react-query";
import { UserRound } from "lucide-react";
import { useDeferredValue, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Contact } from "../../../shared/contracts/messaging";
import { Dialog } from "../../components/ui/dialog";
import { buttonClass, TextField } from "../../components/ui/form";
import { EmptyState, Loading, QueryError } from "../home/parts";
import { contactsQuery } from "./api";
import { Composer } from "./composer";
import { contactRelations } from "./describe";

/**
 * Starts a conversation: find someone the caller may write to (their children's Guides, the school
 * office, their students' families, staff…), then write. Someone they already talk with opens
 * that conversation instead.
 */
export function NewMessageDialog({
  onOpen,
  onClose,
}: {
  /** Opens a conversation: one that exists, or the one the first message began. */
  onOpen: (conversationId: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation("messaging");
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState<Contact | null>(null);
  const deferred = useDeferredValue(search.trim());
  const contacts = useQuery(contactsQuery(deferred));
  const listId = useId();

  return (
    <Dialog title={t("new.title")} description={chosen ? undefined : t("new.description")} onClose={onClose}>
      {chosen ? (
        <div className="mt-4 space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-100 px-3 py-2 text-sm dark:bg-slate-800">
            <p>
              <span className="font-semibold">{t("new.to", { name: chosen.name })}</span>
              <span className="block text-slate-600 dark:text-slate-300">{contactRelations(chosen, t)}</span>
            </p>
            <button
              type="button"
              className="font-semibold text-brand-700 underline dark:text-brand-100"
              onClick={() => setChosen(null)}
            >
              {t("new.change")}
            </button>
          </div>
          <Composer
            recipientId={chosen.id}
            label={t("composer.to", { name: chosen.name })}
            onSent={(sent) => onOpen(sent.conversationId)}
          />
          <div className="flex justify-end">
            <button type="button" onClick={onClose} className={buttonClass("secondary")}>
              {t("new.cancel")}
            </button>
          </div>
        </div>
      ) : (
        <div className="mt-4 space-y-3">
          <TextField
            label={t("new.search")}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            aria-controls={listId}
            autoComplete="off"
          />
          {contacts.isPending ? (
            <Loading label={t("new.loading")} rows={3} />
          ) : contacts.isError ? (
            <QueryError
              error={contacts.error}
              fallback={t("new.failed")}
              onRetry={() => void contacts.refetch()}
            />
          ) : contacts.data.contacts.length === 0 ? (
            <EmptyState icon={UserRound} title={deferred ? t("new.noMatch") : t("new.nobody")} />
          ) : (
            <ul
              id={listId}
              className="max-h-80 divide-y divide-slate-200 overflow-y-auto dark:divide-slate-800"
            >
              {contacts.data.contacts.map((contact) => (
                <li key={contact.id}>
                  <button
                    type="button"
                    onClick={() =>
                      contact.conversationId ? onOpen(contact.conversationId) : setChosen(contact)
                    }
                    className="block w-full rounded-lg px-2 py-2.5 text-left hover:bg-slate-100 dark:hover:bg-slate-800"
                  >
                    <span className="block font-semibold">{contact.name}</span>
                    <span className="block text-sm text-slate-600 dark:text-slate-300">
                      {contactRelations(contact, t)}
                      {contact.conversationId && ` · ${t("new.existing")}`}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="flex justify-end">
            <button type="button" onClick={onClose} className={buttonClass("secondary")}>
              {t("new.cancel")}
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
