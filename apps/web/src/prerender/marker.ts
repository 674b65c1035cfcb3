/** On #root in a prerendered page: the path whose screen the markup is (e.g. '/login'). */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';
