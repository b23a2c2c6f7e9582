// Applies the saved theme before the first paint, so a dark page never flashes white. A file of
// its own, not an inline script, so the Content-Security-Policy can refuse every inline script.
try {
  const theme = localStorage.getItem("theme") ?? "system";
  const isDark =
    theme === "dark" || (theme === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", isDark);
} catch {}
