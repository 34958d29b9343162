/**
 * Outside pages the landing page links to (spec §2): the provider's solutions page (Learn More)
 * and its meeting-booking page (Let's Connect). Both open in a new tab.
 */
export const SOLUTIONS_URL = 'https://planning-suite.dev/solutions';
export const MEETING_URL = 'https://planning-suite.dev/book-a-meeting';
