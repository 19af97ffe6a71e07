// Task and schedule dates are `YYYY-MM-DD` strings checked by the platform's date rule
// (`Joi.calendarDate()` from @wpk/sdk), so their string order is their calendar order.

/** True when `later` is not before `earlier` (both `YYYY-MM-DD`; a missing side always passes). */
export function notBefore(later: string | null | undefined, earlier: string | null | undefined): boolean {
  if (!later || !earlier) return true;
  return later >= earlier;
}
