/** Business constants of docs/spec.md section 9 and docs/founding-architecture.md decisions. Money in centavos. */
export const TAG_MONTHLY_FEE_CENTS = 1590;
export const MIN_PURCHASE_CENTS = 10_000;
export const MAX_PURCHASE_CENTS = 5_000_000;
/**
 * Maxima of what partners push (issue 8), far above any real value and within the columns:
 * a toll passage (the dearest plaza for a 9-axle truck is a few hundred reais), a VPO (a whole
 * trip's tolls; vpos.value_cents is a 32-bit integer) and a third-party platform movement (the
 * same as a balance purchase).
 */
export const MAX_PASSAGE_CENTS = 500_000;
export const MAX_VPO_CENTS = 10_000_000;
export const MAX_PLATFORM_MOVEMENT_CENTS = 5_000_000;
/**
 * The ledger refuses a movement that would take a balance (or whose amount goes) beyond
 * R$ 100 bilhões either way: sums of such values stay exact in a JavaScript number (2^53),
 * so balance = sum of entries always holds and every balance can be read back.
 */
export const LEDGER_LIMIT_CENTS = 10 ** 13;
/** The largest id of a PostgreSQL serial (int4) column: a larger id names nothing. */
export const MAX_ID = 2_147_483_647;
/** Past any real list (10 million rows); a larger page number reads as this one (an empty page). */
export const MAX_PAGE = 1_000_000;
/** A partner's occurredAt: at most a year in the past, at most a day ahead (clocks drift). */
export const PARTNER_EVENT_MAX_AGE_DAYS = 365;
export const PARTNER_EVENT_MAX_AHEAD_HOURS = 24;
export const PIX_CHARGE_TTL_MINUTES = 60;
export const PAGE_SIZE = 10;
export const PASSWORD_MIN_LENGTH = 8;
export const NAME_MIN_LENGTH = 5;
export const CPF_CNPJ_MAX_LENGTH = 14;
export const TAG_SERIAL_MAX_LENGTH = 19;
export const MIN_AXLES = 2;
export const MAX_AXLES = 20;
export const COPY_CONFIRMATION_MS = 3000;
export const GREENPASS_WARNING_MS = 60_000;
export const TOAST_MS = 5000;
/** Founding decision 11: fixed value sent with every tag registration. */
export const INVOICE_GROUP_CODE = 'PEDAGIO-MOTORISTA';
export const TERMS_FILE_NAME = 'Termos-de-Uso.pdf';
/** The dashboard warns when the toll balance is below the driver's alert level; this one until they choose (issue 12). */
export const DEFAULT_BALANCE_ALERT_CENTS = 5_000;
export const MAX_BALANCE_ALERT_CENTS = 5_000_000;
