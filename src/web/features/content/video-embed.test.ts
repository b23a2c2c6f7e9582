import { describe, expect, it } from "vitest";
import { videoEmbedUrl } from "./video-embed";

describe("a lesson video's player", () => {
  it("plays YouTube links in the privacy-enhanced player, keeping the start time", () => {
    for (const link of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtube.com/watch?v=dQw4w9WgXcQ&list=x",
      "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://youtu.be/dQw4w9WgXcQ",
      "https://www.youtube.com/embed/dQw4w9WgXcQ",
      "https://www.youtube.com/shorts/dQw4w9WgXcQ",
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
    ])
      expect(videoEmbedUrl(link), link).toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ");
    expect(videoEmbedUrl("https://youtu.be/dQw4w9WgXcQ?t=1m30s")).toBe(
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=90",
    );
    expect(videoEmbedUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42")).toBe(
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42",
    );
  });

  it("plays Vimeo links with do-not-track, unlisted ones with their key", () => {
    expect(videoEmbedUrl("https://vimeo.com/76979871")).toBe("https://player.vimeo.com/video/76979871?dnt=1");
    expect(videoEmbedUrl("https://vimeo.com/channels/staffpicks/76979871")).toBe(
      "https://player.vimeo.com/video/76979871?dnt=1",
    );
    expect(videoEmbedUrl("https://vimeo.com/76979871/abc123def")).toBe(
      "https://player.vimeo.com/video/76979871?h=abc123def&dnt=1",
    );
    expect(videoEmbedUrl("https://player.vimeo.com/video/76979871")).toBe(
      "https://player.vimeo.com/video/76979871?dnt=1",
    );
  });

  it("leaves every other address to open as a link", () => {
    for (const link of [
      "https://example.org/clouds.mp4",
      "http://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://www.youtube.com/watch?v=short",
      "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
      "https://vimeo.com/about",
      "not a link",
    ])
      expect(videoEmbedUrl(link), link).toBeNull();
  });
});
