import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { MarkReadBody } from "../../../shared/contracts/notifications";
import { markRead } from "./api";
import { notificationKeys } from "./keys";

/** Marks notifications read, then refreshes the bell and the notifications page. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkReadBody) => markRead(body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
