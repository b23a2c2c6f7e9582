import { PlayCircle } from "lucide-react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "../../components/ui/form";

/**
 * A lesson's video, in the lesson and in the course builder: YouTube and Vimeo links play in their
 * privacy-enhanced players (no cookies from youtube-nocookie.com, Vimeo's "do not track"), the only
 * sites the app's CSP lets a page frame; any other address opens in a tab of its own.
 */

const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
const YOUTUBE_ID = /^[\w-]{11}$/;

/** The privacy-enhanced player's address for a YouTube or Vimeo link, or null for any other. */
export function videoEmbedUrl(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== "https:") return null;
  const host = url.hostname.toLowerCase();
  const path = url.pathname.split("/").filter(Boolean);
  if (host === "youtu.be" || YOUTUBE_HOSTS.has(host)) {
    const id =
      host === "youtu.be"
        ? path[0]
        : path[0] === "watch" || path.length === 0
          ? url.searchParams.get("v")
          : ["embed", "shorts", "live", "v"].includes(path[0] ?? "")
            ? path[1]
            : null;
    if (!id || !YOUTUBE_ID.test(id)) return null;
    const start = secondsOf(url.searchParams.get("t") ?? url.searchParams.get("start"));
    return `https://www.youtube-nocookie.com/embed/${id}${start ? `?start=${start}` : ""}`;
  }
  if (host === "vimeo.com" || host === "www.vimeo.com" || host === "player.vimeo.com") {
    // vimeo.com/123, vimeo.com/123/abcdef (unlisted), vimeo.com/channels/x/123, player.vimeo.com/video/123
    const index = path.findIndex((part) => /^\d+$/.test(part));
    if (index < 0) return null;
    const hash =
      url.searchParams.get("h") ?? (/^[\da-f]+$/i.test(path[index + 1] ?? "") ? path[index + 1] : null);
    const query = new URLSearchParams({ ...(hash ? { h: hash } : {}), dnt: "1" });
    return `https://player.vimeo.com/video/${path[index]}?${query}`;
  }
  return null;
}

/** "90", "90s", "1m30s" or "1h2m3s" as seconds; null when it is none of them. */
function secondsOf(value: string | null): number | null {
  if (!value) return null;
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/.exec(value);
  if (!match) return null;
  const [, hours = "0", minutes = "0", seconds = "0"] = match;
  const total = Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
  return total > 0 ? total : null;
}

export function VideoEmbed({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation("content");
  const embed = videoEmbedUrl(url);
  if (!embed)
    return (
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        className={buttonClass("secondary", "inline-flex items-center gap-2")}
      >
        <PlayCircle aria-hidden="true" className="size-4" />
        {t("video.watch")}
        <span className="sr-only">{t("video.opensNewTab")}</span>
      </a>
    );
  return (
    <div className="aspect-video w-full overflow-hidden rounded-xl bg-black">
      <iframe
        src={embed}
        title={t("video.playerTitle", { title })}
        className="size-full"
        loading="lazy"
        allow="fullscreen; picture-in-picture; encrypted-media"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
      />
    </div>
  );
}
