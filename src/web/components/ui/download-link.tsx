import { Download } from "lucide-react";
import type { ReactNode } from "react";
import { buttonClass } from "./form";

/** A file the server makes (a CSV, a PDF), offered as a secondary button that downloads it. */
export function DownloadLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} download className={buttonClass("secondary", "inline-flex items-center gap-2")}>
      <Download aria-hidden="true" className="size-4" />
      {children}
    </a>
  );
}
