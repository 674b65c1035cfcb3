/** Business constants of SPEC.md section 9 and ARCHITECTURE.md decisions. Money in centavos. */
export const TAG_MONTHLY_FEE_CENTS = 1590;
export const MIN_PURCHASE_CENTS = 10_000;
export const MAX_PURCHASE_CENTS = 5_000_000;
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
/** Decision 11: fixed value sent with every tag registration. */
export const INVOICE_GROUP_CODE = 'PEDAGIO-MOTORISTA';
export const TERMS_FILE_NAME = 'Termos-de-Uso.pdf';
