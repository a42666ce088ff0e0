/** Routes the shell itself knows; every other console route comes from the server menu. */
export const HOME_PATH = '/dashboard/analysis';
export const LOGIN_PATH = '/user/login';
export const NOT_FOUND_PATH = '/404';
/** The bell's "view more": the user's own announcements (spec section 2). */
export const USER_ANNOUNCEMENT_PATH = '/isps/userAnnouncement';

/** Only same-origin paths are accepted as a post-login target. */
export function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : HOME_PATH;
}
