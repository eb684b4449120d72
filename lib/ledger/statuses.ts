import { IntentStatus } from "@/prisma/generated/enums";

export { IntentStatus };
export const INTENT_STATUSES = Object.values(IntentStatus) as readonly IntentStatus[];

export const STATUS_LABELS: Record<IntentStatus, string> = {
  prepared: "Prepared",
  dispatched: "Dispatched",
  confirmed: "Confirmed",
  rejected: "Rejected",
  unknown: "Unknown",
  compensating: "Compensating",
  compensated: "Compensated",
};
