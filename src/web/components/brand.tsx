/** The product's name, the same in every language. */
const PRODUCT_NAME = "Dash";

/** The Dash wordmark with its chart-line logo. */
export function Brand({ size = "md" }: { size?: "md" | "lg" }) {
  const box = size === "lg" ? "h-11 w-11" : "h-8 w-8";
  return (
    <span className="inline-flex items-center gap-2">
      <svg viewBox="0 0 64 64" className={box} aria-hidden="true">
        <rect width="64" height="64" rx="14" fill="#2563eb" />
        <path
          d="M18 44 L30 20 L38 36 L46 26"
          fill="none"
          stroke="#fff"
          strokeWidth="6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className={`font-extrabold tracking-tight ${size === "lg" ? "text-3xl" : "text-xl"}`}>
        {PRODUCT_NAME}
      </span>
    </span>
  );
}
