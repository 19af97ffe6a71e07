import { LitElement, errorText, html, kit, screenStyles, toast, type components } from '@wpk/ui';
import { base64Of, SIGN_STYLES, when } from '../api.js';

type Certificate = components['schemas']['SignCertificate'];

/** `/certificate` (admins): the certificate completed envelopes are signed with; upload a PKCS#12 file, or go back to the generated one. */
export class SignCertificate extends LitElement {
  static override properties = { certificate: { state: true }, error: { state: true }, refusal: { state: true }, busy: { state: true } };
  static override styles = [screenStyles, SIGN_STYLES];
  declare certificate: Certificate | null;
  declare error: string | null;
  declare refusal: string | null;
  declare busy: boolean;

  constructor() {
    super();
    this.certificate = null;
    this.error = null;
    this.refusal = null;
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Signing certificate');
    void this.load();
  }

  private async call(method: 'GET' | 'PUT' | 'DELETE', body?: unknown): Promise<Certificate> {
    const answer = await kit().client.request<{ data: Certificate }>(method, '/sign/certificate', body === undefined ? {} : { body });
    return answer.data;
  }

  private async load(): Promise<void> {
    try {
      this.certificate = await this.call('GET');
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async upload(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const data = new FormData(form);
    const file = data.get('p12');
    if (!(file instanceof File) || file.size === 0) {
      this.refusal = 'Choose a .p12 or .pfx file';
      return;
    }
    this.busy = true;
    try {
      this.certificate = await this.call('PUT', { p12: await base64Of(file), passphrase: String(data.get('passphrase') ?? '') });
      this.refusal = null;
      form.reset();
      toast('Certificate uploaded: envelopes completed from now on are signed with it', 'success');
    } catch (error) {
      this.refusal = errorText(error);
    } finally {
      this.busy = false;
    }
  }

  private async reset(): Promise<void> {
    this.busy = true;
    try {
      this.certificate = await this.call('DELETE');
      this.refusal = null;
      toast('Back to the generated certificate', 'success');
    } catch (error) {
      toast(errorText(error), 'danger');
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    const cert = this.certificate;
    return html`<h1>Signing certificate</h1>
      <p class="muted">Completed envelopes are sealed with this certificate. Envelopes completed earlier keep their signature.</p>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      ${cert
        ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Certificate in use, scrollable"><table aria-label="Certificate in use"><tbody>
            <tr><th scope="row">Source</th><td>${cert.source === 'uploaded' ? 'Uploaded' : 'Generated (self-signed)'}</td></tr>
            <tr><th scope="row">Subject</th><td>${cert.subject}</td></tr>
            <tr><th scope="row">Issuer</th><td>${cert.issuer}</td></tr>
            <tr><th scope="row">Serial</th><td><span class="link">${cert.serial}</span></td></tr>
            <tr><th scope="row">Valid</th><td>${when(cert.valid_from, 'date')} to ${when(cert.valid_to, 'date')}</td></tr>
            <tr><th scope="row">SHA-256 fingerprint</th><td><span class="link">${cert.fingerprint_sha256}</span></td></tr>
            <tr><th scope="row">Certificates in each signature</th><td>${cert.chain_length}</td></tr>
          </tbody></table></div>
          ${cert.source === 'uploaded' ? html`<div class="actions"><button ?disabled=${this.busy} @click=${() => this.reset()}>Go back to the generated certificate</button></div>` : ''}`
        : this.error ? '' : html`<p class="muted">Loading…</p>`}
      <form @submit=${(event: Event) => this.upload(event)}>
        <fieldset>
          <legend>Upload your organisation's certificate</legend>
          <p class="muted">A PKCS#12 file issued by your certificate authority, with its private key (RSA) and chain. The passphrase opens it once and is not kept.</p>
          <div class="row">
            <label>Certificate file (.p12, .pfx)<input name="p12" type="file" accept=".p12,.pfx,application/x-pkcs12" required></label>
            <label>Passphrase<input name="passphrase" type="password" autocomplete="off"></label>
          </div>
          ${this.refusal ? html`<p class="error" role="alert">${this.refusal}</p>` : ''}
          <div class="actions"><button class="primary" type="submit" ?disabled=${this.busy}>Upload certificate</button></div>
        </fieldset>
      </form>`;
  }
}

customElements.define('sign-certificate', SignCertificate);
