import type { LanguageSettings, MeResponse } from "../../shared/contracts/auth";
import { chooseLanguage, isLanguage, type Language } from "../../shared/languages";
import { showLanguage } from "./i18n";

/** The language chosen on this device (on the sign-in page, or by someone signed in here). */
const DEVICE_LANGUAGE_KEY = "language";

function deviceLanguage(): Language | null {
  try {
    const stored = localStorage.getItem(DEVICE_LANGUAGE_KEY);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

function rememberOnDevice(language: Language | null) {
  try {
    if (language) localStorage.setItem(DEVICE_LANGUAGE_KEY, language);
    else localStorage.removeItem(DEVICE_LANGUAGE_KEY);
  } catch {
    // Blocked storage: the choice holds for this page view.
  }
}

/**
 * The language to show: the person's own choice (their account's, else this device's), then the
 * languages their browser asks for, then their school's default.
 */
export function languageFor(settings: LanguageSettings | null): Language {
  return chooseLanguage({
    own: settings?.own ?? deviceLanguage(),
    browser: navigator.languages ?? [navigator.language],
    school: settings?.school ?? null,
  });
}

/** Shows the language that `me` calls for; called whenever a `me` answer arrives. */
export function followMe(me: MeResponse) {
  void showLanguage(languageFor(me.isAuthenticated ? me.language : null));
}

/** A choice made before signing in, kept on this device. */
export function chooseLanguageOnDevice(language: Language) {
  rememberOnDevice(language);
  return showLanguage(language);
}

/**
 * A signed-in person's choice, kept with their account by `save` (null follows the browser again),
 * and on this device; answers the language now shown.
 */
export async function chooseOwnLanguage(
  language: Language | null,
  save: (language: Language | null) => Promise<LanguageSettings>,
): Promise<Language> {
  const settings = await save(language);
  rememberOnDevice(language);
  const shown = languageFor(settings);
  await showLanguage(shown);
  return shown;
}
