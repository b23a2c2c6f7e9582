/**
 * The QTI player library on demand (decision 022): the first question on a page starts the
 * download, later ones reuse it. A failed download is forgotten, so the next attempt tries again.
 */
type QtiLibrary = typeof import("./qti-library");

let library: Promise<QtiLibrary> | null = null;

export function loadQtiLibrary(): Promise<QtiLibrary> {
  library ??= import("./qti-library").catch((error: unknown) => {
    library = null;
    throw error;
  });
  return library;
}
