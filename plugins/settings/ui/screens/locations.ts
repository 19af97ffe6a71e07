import { LitElement, appLink, confirmAction, css, errorText, html, kit, navigate, screenStyles, toast, type RowAction, type TableColumn, type WpkDataTable, type WpkSchemaForm } from '@wpk/ui';
import { ADDRESS_FIELDS, LOCATION_FORM, addressRefusal, locationBody, type Location } from '../api.js';

/** `City, Country` of a location, or ''. */
const place = (location: Location) => [location.address.city, location.address.country].filter(Boolean).join(', ');

/** `/locations`: the workspace's locations, each editable and deletable, and a form to add one. */
export class SettingsLocations extends LitElement {
  static override styles = [screenStyles, css`section { margin-top: var(--wpk-space-5); }`];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Locations');
  }

  private get table(): WpkDataTable<Location> {
    return this.renderRoot.querySelector('wpk-data-table') as unknown as WpkDataTable<Location>;
  }

  private async add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    try {
      const location = (await kit().client.settings.postSettingsLocations({ body: locationBody(event.detail) as never })).data;
      toast(`${location.name} added`, 'success');
      form.value = {};
      form.submitting = false;
      this.table.reload();
    } catch (error) {
      form.fail(addressRefusal(error));
    }
  }

  private async deleteLocation(location: Location): Promise<void> {
    if (!(await confirmAction({ title: `Delete ${location.name}?`, message: 'Apps that keep this location (attendance) drop it.', confirm_label: 'Delete location', danger: true }))) return;
    try {
      await kit().client.settings.deleteSettingsLocationsByLocationId({ params: { location_id: location.id } });
      toast(`${location.name} deleted`, 'success');
      this.table.reload();
    } catch (error) {
      toast(errorText(error), 'danger');
    }
  }

  protected override render() {
    const columns: TableColumn<Location>[] = [
      { key: 'name', label: 'Location', render: (location) => appLink(`/locations/${location.id}`, location.name) },
      { key: 'place', label: 'Place', render: place },
      { key: 'timezone', label: 'Time zone' },
    ];
    const actions: RowAction<Location>[] = [{ label: 'Delete', danger: true, run: (location) => this.deleteLocation(location) }];
    return html`<h1>Locations</h1>
      <wpk-data-table caption="The workspace's locations" .source=${'/settings/locations'} filterable filter-label="Search locations" .columns=${columns} .actions=${actions}
        empty="No location yet: add the first one below."></wpk-data-table>
      <section aria-labelledby="add"><h2 id="add">Add a location</h2>
        <wpk-schema-form .schema=${LOCATION_FORM} .value=${{}} submit-label="Add location" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>
      </section>`;
  }
}

/** `/locations/{id}`: one location's form. */
export class SettingsLocation extends LitElement {
  static override properties = { locationId: { attribute: false }, location: { state: true }, error: { state: true } };
  static override styles = screenStyles;
  declare locationId: string;
  declare location: Location | null;
  declare error: string | null;

  constructor() {
    super();
    this.locationId = '';
    this.location = null;
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.location = (await kit().client.settings.getSettingsLocationsByLocationId({ params: { location_id: this.locationId } })).data;
      void kit().bridge.title(this.location.name);
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async save(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    try {
      const saved = (await kit().client.settings.patchSettingsLocationsByLocationId({ params: { location_id: this.locationId }, body: locationBody(event.detail) as never })).data;
      toast(`${saved.name} saved`, 'success');
      await navigate('/locations');
    } catch (error) {
      form.fail(addressRefusal(error));
    }
  }

  protected override render() {
    const back = html`<p class="back">${appLink('/locations', '← All locations')}</p>`;
    if (this.error) return html`${back}<p class="error" role="alert">${this.error}</p>`;
    const location = this.location;
    if (!location) return html`<wa-spinner label="Loading the location"></wa-spinner>`;
    const value = { name: location.name, timezone: location.timezone, ...Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, location.address[field] ?? ''])) };
    return html`${back}<h1>Edit ${location.name}</h1>
      <wpk-schema-form .schema=${LOCATION_FORM} .value=${value} submit-label="Save location" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.save(event)}></wpk-schema-form>`;
  }
}

customElements.define('settings-locations', SettingsLocations);
customElements.define('settings-location', SettingsLocation);
