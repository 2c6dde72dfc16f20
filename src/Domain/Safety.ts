import type { JobType } from "./Catalog.js"
import { ContractError } from "./Errors.js"

/**
 * Truth rule 5: the service is not for emergencies or safety-critical triage. Every job type
 * the catalog routes as an emergency is one; such a job gets neither options nor a follow-up
 * request, and the person is pointed to 112 and to an on-call tradesperson.
 */
export const isEmergency = (jobType: Pick<JobType, "routing_mode">) => jobType.routing_mode === "emergency"

export const emergencyAdvice = {
  sv: "Den här tjänsten hanterar inte akuta eller farliga fel. Om någon är i fara, eller om det brinner, ryker, gnistrar eller luktar bränt: ring 112 nu. Är det akut men ingen är i fara, kontakta en jourhavande hantverkare direkt.",
  en: "This service does not handle emergencies or dangerous faults. If anyone is in danger, or there is fire, smoke, sparks or a burning smell: call 112 now. If it is urgent but nobody is in danger, contact an on-call tradesperson directly."
} as const

/** What an assistant tells the person, in Swedish first and English after. */
export const emergencyStep = `Nothing can be booked or requested for an emergency here. Tell the user, in their language: "${emergencyAdvice.sv}" / "${emergencyAdvice.en}"`

export class EmergencyNotSupported extends ContractError<EmergencyNotSupported>()(
  "emergency_not_supported",
  400,
  "Emergencies and safety-critical jobs cannot be requested here; the body says to call 112",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery:
      "Tell the user the advice in safe_next_step now: call 112 if anyone is in danger, otherwise an on-call tradesperson directly; nothing can be booked or requested for an emergency here."
  }
) {}
