import type { TFieldError } from '@blrms/contracts';
import i18n from 'i18next';
import { feedback } from './feedback';
import { getToken, logout, rememberSessionEnd, sessionEndsOnPurpose } from './session';

/**
 * What a failed call rejects with: the HTTP status (504 for our own timeout), the message, and
 * the fields it concerns when the server names them (a 400 or 409 of a form).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly fields: readonly TFieldError[];
  /** A form showed the field errors under its fields: no notice is needed. */
  placed = false;

  constructor(status: number, message: string, fields: readonly TFieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
  }
}

export const STATUS_TIMEOUT = 504;
export const STATUS_NETWORK = 0;
/** The server's message for an expired session (the 500 case of spec section 8). */
export const TOKEN_EXPIRED_MESSAGE = 'Token失效，请重新登录';

const NOTICE_SECONDS = 4;
const RELOAD_DELAY_MS = 1500;

// Several calls usually fail together when a session ends; the user is told once.
let sessionEnding = false;

function reloadRoot(): void {
  window.location.replace('/');
}

/**
 * Reports an error that a form may show under its fields instead: the notice waits one task,
 * enough for the form that submitted (`showFieldErrors`) to take it, and stays away if it did.
 */
export function reportUnlessPlaced(error: ApiError): void {
  if (error.fields.length === 0) {
    reportApiError(error);
    return;
  }
  window.setTimeout(() => {
    if (!error.placed) reportApiError(error);
  }, 0);
}

/** The error catalogue of spec section 8, in one place. */
export function reportApiError(error: ApiError): void {
  const t = i18n.t.bind(i18n);
  const { notification, modal } = feedback();
  const title = t('http.systemNotice');
  const hasToken = getToken() !== null;
  const sessionEnds = error.status === 401 || error.message === TOKEN_EXPIRED_MESSAGE;
  if (sessionEnds && sessionEndsOnPurpose()) return;

  if (error.status === 500 && error.message === TOKEN_EXPIRED_MESSAGE && hasToken) {
    if (sessionEnding) return;
    sessionEnding = true;
    modal.error({
      title: t('http.sessionExpiredTitle'),
      content: t('http.sessionExpiredContent'),
      okText: t('http.loginAgain'),
      maskClosable: false,
      keyboard: false,
      onOk: async () => {
        await logout();
        reloadRoot();
      },
    });
    return;
  }

  switch (error.status) {
    case 403:
      notification.error({
        message: title,
        description: t('http.forbidden'),
        duration: NOTICE_SECONDS,
      });
      return;
    case 404:
      notification.error({
        message: title,
        description: t('http.notFound'),
        duration: NOTICE_SECONDS,
      });
      return;
    case STATUS_TIMEOUT:
      notification.error({ message: title, description: t('http.timeout') });
      return;
    case 401: {
      if (sessionEnding) return;
      // The server says why ("Token失效，请重新登录", "该用户已冻结"), in the user's language.
      const reason = error.message || t('http.unauthorized');
      notification.error({ message: title, description: reason, duration: NOTICE_SECONDS });
      if (hasToken) {
        sessionEnding = true;
        // Only a session that ended without the user's doing leaves a reason for the login page.
        rememberSessionEnd(reason);
        void logout().then(() => window.setTimeout(reloadRoot, RELOAD_DELAY_MS));
      }
      return;
    }
    case STATUS_NETWORK:
      notification.error({
        message: title,
        description: t('http.network'),
        duration: NOTICE_SECONDS,
      });
      return;
    default:
      notification.error({
        message: title,
        description: error.message || t('http.unknown'),
        duration: NOTICE_SECONDS,
      });
  }
}
