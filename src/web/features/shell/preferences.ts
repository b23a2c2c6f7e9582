import { useCallback, useEffect, useState } from "react";

/** Reads and writes one localStorage value, tolerating blocked storage. */
function useStoredValue<T extends string>(key: string, fallback: T, isValid: (value: string) => value is T) {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = localStorage.getItem(key);
      return stored !== null && isValid(stored) ? stored : fallback;
    } catch {
      return fallback;
    }
  });
  const store = useCallback(
    (next: T) => {
      setValue(next);
      try {
        if (next === fallback) localStorage.removeItem(key);
        else localStorage.setItem(key, next);
      } catch {
        // The choice still holds for this page view.
      }
    },
    [key, fallback],
  );
  return [value, store] as const;
}

export const DEBUG_MODE_KEY = "debug-mode";
const isFlag = (value: string): value is "true" | "false" => value === "true" || value === "false";

/**
 * Debug mode: Ctrl or Cmd + Shift + D toggles it for admin-level users; it is switched off when
 * anyone else has it on (a shared computer, or after switching role).
 */
export function useDebugMode(isAllowed: boolean): boolean {
  const [stored, setStored] = useStoredValue<"true" | "false">(DEBUG_MODE_KEY, "false", isFlag);
  const isOn = stored === "true";

  useEffect(() => {
    if (isOn && !isAllowed) setStored("false");
  }, [isOn, isAllowed, setStored]);

  useEffect(() => {
    if (!isAllowed) return;
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.key.toLowerCase() === "d") {
        event.preventDefault();
        setStored(isOn ? "false" : "true");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [isAllowed, isOn, setStored]);

  return isOn && isAllowed;
}

export const THEME_KEY = "theme";
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
const isTheme = (value: string): value is Theme => (THEMES as readonly string[]).includes(value);

/** Light, dark or the system's choice, applied as the `dark` class on <html>. */
export function useTheme() {
  const [theme, setTheme] = useStoredValue<Theme>(THEME_KEY, "system", isTheme);
  useEffect(() => {
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const apply = () =>
      document.documentElement.classList.toggle(
        "dark",
        theme === "dark" || (theme === "system" && media.matches),
      );
    apply();
    media.addEventListener("change", apply);
    return () => media.removeEventListener("change", apply);
  }, [theme]);
  return [theme, setTheme] as const;
}
