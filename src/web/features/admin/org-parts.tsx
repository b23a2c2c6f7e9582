import { Link } from "@tanstack/react-router";
import { Card } from "../../components/page-header";
import { ApiRequestError } from "../../lib/http";
import { QueryError } from "../home/parts";

/**
 * Why an organisation's page cannot show: it does not exist, or the caller may not see it, in
 * words, with the way back to the list.
 */
export function OrgLoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const status = error instanceof ApiRequestError ? error.status : 0;
  if (status !== 404 && status !== 403)
    return <QueryError error={error} fallback="Could not load this organization" onRetry={onRetry} />;
  return (
    <Card className="text-center">
      <h1 className="text-2xl font-bold">
        {status === 404 ? "Organization not found" : "This organization is not yours to see"}
      </h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">
        {status === 404
          ? "No organization has this address. It may have been removed, or the link is wrong."
          : error.message}
      </p>
      <Link
        to="/app/admin/organizations"
        className="mt-4 inline-block font-semibold text-brand-700 underline dark:text-brand-100"
      >
        See all organizations
      </Link>
    </Card>
  );
}

/** "77 students · 5 Guides · 16 classes", leaving out what does not apply. */
export function countsText(counts: { students: number; guides: number; classes?: number }): string {
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return [
    plural(counts.students, "student", "students"),
    plural(counts.guides, "Guide", "Guides"),
    counts.classes ? plural(counts.classes, "class", "classes") : null,
  ]
    .filter(Boolean)
    .join(" · ");
}
