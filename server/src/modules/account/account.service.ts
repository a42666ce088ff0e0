import type {
  TLoginStep,
  TPasswordResetRequest,
  TPhoneLoginRequest,
  TRegisterCheckQuery,
  TRegisterCodeCheckRequest,
  TRegisterRequest,
  TRegisterResult,
  TResetCodeRequest,
  TSmsRequest,
} from '@blrms/contracts';
import type { PasswordHasher } from '../../platform/auth/passwords.js';
import type { SessionService } from '../../platform/auth/sessions.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import type { AuthService, LoginContext } from '../auth/auth.service.js';
import type { CompanyService } from '../company/company.service.js';
import type { MessageService } from '../message/message.service.js';
import { weakPasswordReason } from '../user/password-policy.rules.js';
import type { UserService } from '../user/user.service.js';
import {
  CODE_LIFETIME_MS,
  type CodePurpose,
  type VerifyCodeService,
} from './verify-code.service.js';

const DUPLICATE_MESSAGE = {
  username: 'usernameExists',
  phone: 'phoneExists',
  email: 'emailExists',
} as const;

export interface RequestContext extends LoginContext {
  lang: Lang;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Registration, phone login and password reset: the public account flows. */
export class AccountService {
  constructor(
    private readonly codes: VerifyCodeService,
    private readonly messages: MessageService,
    private readonly auth: AuthService,
    private readonly companies: CompanyService,
    private readonly users: UserService,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  /** Sends a registration code to any address: registering is how an address proves itself. */
  async sendRegisterCode(email: string, context: RequestContext): Promise<void> {
    const target = normalizeEmail(email);
    const code = await this.codes.issue('register', target, context.ip);
    await this.mailCode(target, code, context.lang);
  }

  /**
   * The registration form's live checks. They necessarily say whether a value is taken (the spec's
   * duplicate messages); the route rate-limits them per IP instead.
   */
  async checkRegisterField(query: TRegisterCheckQuery): Promise<void> {
    const value = query.field === 'email' ? normalizeEmail(query.value) : query.value;
    if (await this.users.isTaken(query.field, value)) {
      throw new AppError(DUPLICATE_MESSAGE[query.field], 409);
    }
  }

  /**
   * The form's check as the user leaves the code step. It spends one of the code's attempts like
   * any guess, and leaves a right code unused for the registration itself.
   */
  async checkRegisterCode(input: TRegisterCodeCheckRequest): Promise<null> {
    const codeId = await this.codes.check('register', normalizeEmail(input.email), input.emailCode);
    if (!codeId) throw new AppError('codeInvalid', 400);
    return null;
  }

  /**
   * Creates the user with a company of their own, whose administrator they are. The email code is
   * checked before the duplicates, so a full registration attempt reveals nothing the live checks
   * do not, and only to someone who controls the address.
   */
  async register(input: TRegisterRequest): Promise<TRegisterResult> {
    const email = normalizeEmail(input.email);
    const reason = weakPasswordReason(input.password, {
      username: input.username,
      oldPassword: '',
    });
    if (reason) throw new AppError('weakPassword', 400, { reason });
    const codeId = await this.codes.check('register', email, input.emailCode);
    if (!codeId) throw new AppError('codeInvalid', 400);
    for (const field of ['username', 'phone', 'email'] as const) {
      const value = field === 'email' ? email : input[field];
      if (await this.users.isTaken(field, value)) {
        throw new AppError(DUPLICATE_MESSAGE[field], 409);
      }
    }
    await this.codes.use(codeId);

    await this.companies.createWithAdmin({
      name: input.username,
      nameEn: input.username,
      admin: {
        username: input.username,
        realname: input.username,
        password: input.password,
        phone: input.phone,
        email,
      },
      createBy: input.username,
    });
    return { username: input.username, email };
  }

  /**
   * Same answer whether or not the number belongs to an account; the code is only delivered when
   * it does. The per-target throttle counts both alike.
   */
  async sendSms(input: TSmsRequest, context: RequestContext): Promise<void> {
    const purpose: CodePurpose = input.smsmode === '0' ? 'login' : 'reset';
    const code = await this.codes.issue(purpose, input.mobile, context.ip);
    const user = await this.users.findBy('phone', input.mobile);
    if (user && user.status === 1) await this.smsCode(input.mobile, code, context.lang);
  }

  async phoneLogin(input: TPhoneLoginRequest, context: LoginContext): Promise<TLoginStep> {
    await this.codes.consume('login', input.mobile, input.captcha);
    const user = await this.users.findBy('phone', input.mobile);
    if (!user) throw new AppError('codeInvalid', 400);
    if (user.status !== 1) throw new AppError('userFrozen', 403);
    return this.auth.afterFirstFactor(user, context);
  }

  async sendResetCode(input: TResetCodeRequest, context: RequestContext): Promise<void> {
    if (input.channel === 'phone') {
      await this.sendSms({ mobile: input.target, smsmode: '2' }, context);
      return;
    }
    const target = normalizeEmail(input.target);
    const code = await this.codes.issue('reset', target, context.ip);
    const user = await this.users.findBy('email', target);
    if (user && user.status === 1) await this.mailCode(target, code, context.lang);
  }

  /** Proof of the code first; then the new password; then every session of the user ends. */
  async resetPassword(input: TPasswordResetRequest): Promise<void> {
    const target = input.channel === 'email' ? normalizeEmail(input.target) : input.target;
    const codeId = await this.codes.check('reset', target, input.code);
    const user = codeId ? await this.users.findBy(input.channel, target) : undefined;
    if (!codeId || !user || user.status !== 1) throw new AppError('codeInvalid', 400);
    const reason = weakPasswordReason(input.password, { username: user.username, oldPassword: '' });
    if (reason) throw new AppError('weakPassword', 400, { reason });
    await this.codes.use(codeId);
    await this.users.setPasswordHash(user.id, await this.hasher.hash(input.password));
    await this.sessions.revokeAllOf(user.id);
  }

  private mailCode(to: string, code: string, lang: Lang): Promise<void> {
    return this.sendCode('verify_code_email', to, code, lang);
  }

  private smsCode(phone: string, code: string, lang: Lang): Promise<void> {
    return this.sendCode('verify_code_sms', phone, code, lang);
  }

  /**
   * Through the message center's template (platform administrators edit its texts), sent before
   * the request is answered: a failure is the request's (503 for the SMS gateway), and a code is
   * never delivered after it expired.
   */
  private async sendCode(
    templateCode: 'verify_code_email' | 'verify_code_sms',
    address: string,
    code: string,
    lang: Lang,
  ): Promise<void> {
    await this.messages.sendTemplate({
      companyId: null,
      templateCode,
      receivers: { userIds: [], addresses: [address] },
      vars: { code, minutes: CODE_LIFETIME_MS / 60_000 },
      lang,
      now: true,
      expiresAt: this.clock() + CODE_LIFETIME_MS,
    });
  }
}
