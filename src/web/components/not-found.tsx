import { Link } from "@tanstack/react-router";

export function NotFound() {
  return (
    <div className="mx-auto mt-16 max-w-md px-6 text-center">
      <h1 className="text-3xl font-bold">Not Found</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">There is no page at this address.</p>
      <Link
        to="/app"
        className="mt-6 inline-block font-semibold text-brand-700 underline dark:text-brand-100"
      >
        Go to your dashboard
      </Link>
    </div>
  );
}
