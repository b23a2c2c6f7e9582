import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Loading } from "../home/parts";

/** The project's rich-text editor (the course builder's), loaded only when a form shows it. */
const ArticleEditor = lazy(() => import("../content/course-builder-article-editor"));

/** The editor of a message or announcement: its toolbar speaks the `content` catalogue, loaded with the page. */
export function RichTextEditor(props: {
  label: string;
  html: string;
  onChange: (html: string) => void;
  describedBy?: string;
}) {
  const { t } = useTranslation("messaging");
  return (
    <Suspense fallback={<Loading label={t("editorLoading")} rows={3} />}>
      <ArticleEditor {...props} />
    </Suspense>
  );
}
