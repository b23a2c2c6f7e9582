import type { ImportProblem } from "../../../../shared/contracts/roster-bulk";
import { DEFAULT_LANGUAGE, type Language } from "../../../../shared/languages";
import { type Message, translate } from "../../../lib/i18n";

/** The most errors a report lists (all are counted); a broken 100,000-row file must not make a 100 MB report. */
const MAX_LISTED_ERRORS = 500;
const MAX_LISTED_WARNINGS = 200;

export interface ProblemPlace {
  file: string;
  line?: number | null;
  column?: string | null;
}

/** A problem as found: its message is said in the reader's language when the report is made. */
type FoundProblem = Omit<ImportProblem, "message"> & { message: string | Message };

/**
 * The problems an import finds. Every error is listed (up to a cap) with its place; a warning
 * repeated on many rows (the same message in the same column) is listed once with a count.
 */
export class ProblemLog {
  private readonly errors: FoundProblem[] = [];
  private readonly warnings = new Map<string, FoundProblem>();
  errorCount = 0;
  warningCount = 0;
  private isWarningDropped = false;

  error(place: ProblemPlace, message: string | Message): void {
    this.errorCount++;
    if (this.errors.length < MAX_LISTED_ERRORS) this.errors.push(problem("error", place, message));
  }

  warning(place: ProblemPlace, message: string | Message): void {
    this.warningCount++;
    const said =
      typeof message === "string" ? message : `${message.key}\u0000${JSON.stringify(message.values)}`;
    const key = `${place.file}\u0000${place.column ?? ""}\u0000${said}`;
    const seen = this.warnings.get(key);
    if (seen) {
      seen.occurrences = (seen.occurrences ?? 1) + 1;
      return;
    }
    if (this.warnings.size < MAX_LISTED_WARNINGS) this.warnings.set(key, problem("warning", place, message));
    else this.isWarningDropped = true;
  }

  get hasErrors(): boolean {
    return this.errorCount > 0;
  }

  /** Errors first, then warnings, each in the order they were found, said in `language`. */
  list(language: Language = DEFAULT_LANGUAGE): ImportProblem[] {
    return [...this.errors, ...this.warnings.values()].map((found) => ({
      ...found,
      message: translate(found.message, language),
    }));
  }

  get isTruncated(): boolean {
    return this.errorCount > this.errors.length || this.isWarningDropped;
  }
}

function problem(
  severity: ImportProblem["severity"],
  place: ProblemPlace,
  message: string | Message,
): FoundProblem {
  return { severity, file: place.file, line: place.line ?? null, column: place.column ?? null, message };
}

/** A log that forgets everything: the apply pass reads rows that were already checked. */
export class SilentProblemLog extends ProblemLog {
  override error(): void {}
  override warning(): void {}
}
