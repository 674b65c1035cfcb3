/**
 * What the prerendered tag detail page (/tags/detalhes/:licensePlate), its scripts (scripts/boot.ts,
 * scripts/paintVehicle.ts) and the app agree on: the vehicle and its tag painted before the app
 * arrives, from build-time templates of the app's own markup (build/vehicleTemplates.ts). Named here
 * once and imported by all three: the scripts are built on their own (build/earlyScripts.ts), so
 * what they import is copied into them. No imports: the scripts must stay small.
 */

/** GET /api/veiculo/detail/{licensePlate} (the contract's api.vehicleDetail; test/early-paint/prerender.test.tsx holds them equal). */
export const VEHICLE_DETAIL_PATH = '/api/veiculo/detail/';

/** On <meta name="portal-app">: the plate whose vehicle boot.ts asks for at once (the server writes it in). */
export const EARLY_VEHICLE_ATTRIBUTE = 'data-early-vehicle';

/** On <meta name="portal-app">: the painter's script (scripts/paintVehicle.ts as built), loaded beside the read. */
export const VEHICLE_PAINTER_ATTRIBUTE = 'data-vehicle-painter';

/** On the 'Carregando...' of the page: where boot.ts puts the vehicle it painted. */
export const VEHICLE_SLOT_ATTRIBUTE = 'data-vehicle-slot';

/** On the element the app draws for a vehicle (its cards): what the build cuts the templates from. */
export const VEHICLE_VIEW_ATTRIBUTE = 'data-vehicle-view';

/** On each build-time <template>: 'frame', 'vehicle', 'no-tag', 'tag' or 'actions'. */
export const VEHICLE_PART_ATTRIBUTE = 'data-vehicle-part';

/** On a 'tag' or 'actions' template: the keys it is drawn for, space-separated (tagCardKey, tagActionsKey). */
export const VEHICLE_KEYS_ATTRIBUTE = 'data-vehicle-keys';

/** On <html> once boot.ts painted the vehicle: the answer, its plate and when it came (JSON), for the app. */
export const VEHICLE_ANSWER_ATTRIBUTE = 'data-early-vehicle-answer';

/** Where the templates hold the vehicle's own values; the painter writes each in as the app draws it. */
export const PLATE_TOKEN = '__VEHICLE_PLATE__';
export const AXLES_TOKEN = '__VEHICLE_AXLES__';
export const RNTRC_TOKEN = '__VEHICLE_RNTRC__';
export const CPF_CNPJ_TOKEN = '__VEHICLE_CPFCNPJ__';
export const SERIAL_TOKEN = '__TAG_SERIAL__';

/**
 * The tag card is drawn by the tag's status code, and by whether its vehicle's budget blocked it
 * (decision 78: no template is built for that one, so the app draws it).
 */
export const tagCardKey = (statusCode: number | null, budgetBlocked = false): string =>
  budgetBlocked ? `${String(statusCode)}:orcamento` : String(statusCode);

/** The actions are drawn by the status code and who manages the tag. */
export const tagActionsKey = (statusCode: number | null, ownershipType: string): string => `${String(statusCode)}:${ownershipType}`;
