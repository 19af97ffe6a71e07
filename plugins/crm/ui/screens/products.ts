import { LitElement, errorText, filledValues, html, kit, screenStyles, sendSchemaForm, type FormSchema } from '@wpk/ui';
import { LIST_STYLES, moneyText, type Product } from '../api.js';

/** `/products`: the catalogue (what deals' lines and Finance's product_mrn name), and a form to add a product. */
export class CrmProducts extends LitElement {
  static override properties = { products: { state: true }, error: { state: true } };
  static override styles = [screenStyles, LIST_STYLES];
  declare products: Product[];
  declare error: string | null;

  constructor() {
    super();
    this.products = [];
    this.error = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('Products');
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.products = (await kit().client.crm.getCrmProducts({ query: { per_page: 100 } })).data as Product[];
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private readonly schema: FormSchema = {
    required: ['name', 'unit_price', 'currency'],
    properties: {
      name: { type: 'string', title: 'Name', maxLength: 200 },
      sku: { type: 'string', title: 'SKU', maxLength: 100 },
      unit_price: { type: 'string', title: 'Unit price', description: 'An exact amount: 19.99' },
      currency: { type: 'string', title: 'Currency', description: 'ISO 4217: EUR', maxLength: 3 },
    },
  };

  private add(event: CustomEvent<Record<string, unknown>>): Promise<void> {
    return sendSchemaForm(event, (values) => kit().client.crm.postCrmProducts({ body: filledValues(values) as never }), () => this.load());
  }

  protected override render() {
    return html`<h1>Products</h1>
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ''}
      <div class="scroll"><table aria-label="Products">
        <thead><tr><th scope="col">Name</th><th scope="col">SKU</th><th scope="col" class="num">Unit price</th><th scope="col">Price lists</th></tr></thead>
        <tbody>${this.products.map((product) => html`<tr>
          <td>${product.name}${product.active ? '' : html` <span class="muted">(inactive)</span>`}</td><td>${product.sku ?? ''}</td>
          <td class="num">${moneyText(product.unit_price, product.currency)}</td><td>${product.prices.map((price) => `${price.price_list}: ${price.unit_price}`).join(', ')}</td>
        </tr>`)}</tbody>
      </table></div>
      <h2>Add a product</h2>
      <wpk-schema-form .schema=${this.schema} .value=${{}} submit-label="Add product" @wpk-submit=${(event: CustomEvent<Record<string, unknown>>) => this.add(event)}></wpk-schema-form>`;
  }
}

customElements.define('crm-products', CrmProducts);
