import type { ServerRoute } from '@hapi/hapi';
import { callApi, ok } from '../api.js';
import { blankForm, formFromAnswer, formValues } from '../forms.js';
import { back, notice, pageOptions, screen } from '../screen.js';
import { page } from '../views.js';

/** An otpauth URI as `POST /totps` makes it: anything else is not put into a link. */
const OTPAUTH = /^otpauth:\/\/totp\/[^\s"<>]{1,500}$/;

/**
 * The member's own two-factor screen (`/account/two-factor`): set up (the secret and its
 * otpauth link, then a code from the app: `POST` then `PUT /totps`, recovery codes shown once)
 * and turn off (`DELETE /totps`, with the password).
 */
export function accountRoutes(): ServerRoute[] {
  const TITLE = 'Two-factor authentication';
  return [
    {
      method: 'GET',
      path: '/account/two-factor',
      options: pageOptions(),
      handler: screen(async (request, h, me) => page(h, 'two-factor', { title: TITLE, me, enabled: me.two_factor_enabled, form: blankForm(), notice: notice(request) })),
    },
    {
      method: 'POST',
      path: '/account/two-factor/setup',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const answer = await callApi<{ data: { secret: string; otpauth_uri: string } }>(request, 'POST', '/totps', {});
        if (!ok(answer)) return page(h, 'two-factor', { title: TITLE, me, enabled: me.two_factor_enabled, form: { values: {}, errors: {}, error: answer.body.error ?? 'Setting up failed' } }, answer.status);
        return page(h, 'two-factor', { title: TITLE, me, enrolment: answer.body.data, form: blankForm() });
      }),
    },
    {
      method: 'POST',
      path: '/account/two-factor/enable',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const values = formValues(request.payload, ['code', 'secret', 'otpauth_uri']);
        const answer = await callApi<{ data: { recovery_codes: string[] } }>(request, 'PUT', '/totps', { code: values.code ?? '' });
        // Recovery codes: on this one answer only (no-store), never again.
        if (ok(answer)) return page(h, 'two-factor', { title: TITLE, me, enabled: true, recoveryCodes: answer.body.data.recovery_codes, form: blankForm() });
        // The pending secret stays on the server; the page shows again what this browser was shown.
        const enrolment = { secret: (values.secret ?? '').slice(0, 100), otpauth_uri: OTPAUTH.test(values.otpauth_uri ?? '') ? values.otpauth_uri : null };
        // The code is the form's one field: a refusal of it ("Invalid TOTP code") goes beside it.
        const form = formFromAnswer(answer, ['code'], values);
        if (form.error !== null && answer.status < 409) Object.assign(form, { errors: { code: form.error }, error: null });
        return page(h, 'two-factor', { title: TITLE, me, enrolment, form }, answer.status);
      }),
    },
    {
      method: 'POST',
      path: '/account/two-factor/disable',
      options: pageOptions(),
      handler: screen(async (request, h, me) => {
        const values = formValues(request.payload, ['password']);
        const answer = await callApi(request, 'DELETE', '/totps', { password: values.password ?? '' });
        if (ok(answer)) return back(h, '/account/two-factor?done=two-factor-off');
        // "Invalid password" names the field it is about.
        const form = formFromAnswer(answer, ['password'], values);
        if (form.error === 'Invalid password') return page(h, 'two-factor', { title: TITLE, me, enabled: me.two_factor_enabled, form: { values: {}, errors: { password: form.error }, error: null } }, answer.status);
        return page(h, 'two-factor', { title: TITLE, me, enabled: me.two_factor_enabled, form }, answer.status);
      }),
    },
  ];
}
