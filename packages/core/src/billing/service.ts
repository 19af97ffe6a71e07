import { ConflictError, InvalidError, NotFoundError } from '@wpk/sdk';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { EventBus } from '../events/index.js';
import type { MessagesService } from '../messages/index.js';
import type { BillingConfig, PlanDefinition } from './config.js';
import { meteredLines, presentMetered } from './metering.js';
import { addMonths, formatAmount, parseAmount, roundHalfUp } from './money.js';
import { CardDeclinedError, ProviderUnavailableError, type CardInput, type PaymentProvider } from './providers.js';

export type Interval = 'monthly' | 'annual';

/** A billing account row: the paid period and the loop's next firing. */
interface AccountRow {
  workspace_id: string;
  loop: 'monthly' | 'usage';
  anchor: Date;
  period_start: Date;
  period_end: Date;
  seats_paid: number;
  usage_from: Date;
  run_index: number;
  next_run_at: Date;
  past_due_since: Date | null;
  /** Metered usage recorded before this instant is billed (docs/billing.md, "Metered usage"). */
  metered_to: Date;
}

interface WorkspaceRow {
  id: string;
  plan: string;
  billing_interval: Interval;
  status: 'active' | 'suspended' | 'deleted';
}

/** One line of an invoice being issued (amounts in cents). */
interface Line {
  description: string;
  quantity: number;
  unit: bigint;
  amount: bigint;
}

export interface InvoiceLineView {
  description: string;
  quantity: number;
  unit_amount: string;
  amount: string;
}

export interface InvoiceView {
  id: string;
  number: number;
  kind: 'seats' | 'usage';
  plan: string;
  billing_interval: Interval;
  period_start: string;
  period_end: string;
  amount: string;
  currency: string;
  /** `open`: issued, its first charge to come; `past_due`: a charge failed (retried on the schedule); `paid`. */
  status: InvoiceStatus;
  issued_at: string;
  due_at: string;
  /** Charges tried so far. */
  attempt_count: number;
  /** When the next charge is tried (null: paid, or no retry left). */
  next_attempt_at: string | null;
  /** The provider's reason for the last failed charge. */
  last_payment_error: string | null;
  paid_at: string | null;
  lines: InvoiceLineView[];
}

export type InvoiceStatus = 'open' | 'past_due' | 'paid' | 'void';

/** What a charge attempt came to. */
export type AttemptOutcome = 'paid' | 'failed' | 'postponed' | 'skipped';

export interface SubscriptionView {
  plan: string;
  billing_interval: Interval;
  currency: string;
  seats: number;
  /** Seats paid for in the current period (null before the account opened): seats beyond them are billed as usage. */
  seats_paid: number | null;
  /** The paid period (null before the workspace's first billing change opened its account). */
  period_start: string | null;
  period_end: string | null;
  /** When the billing loop fires next, and what it is: `monthly` (bills the next month of seats) or `usage` (bills seats beyond those paid for the year). */
  next_run_at: string | null;
  loop: 'monthly' | 'usage' | null;
  /** `past_due` once an invoice's last retry failed, until every invoice is paid. */
  billing_status: 'current' | 'past_due';
  past_due_since: string | null;
  /**
   * Metered usage (apps' `ctx.usage.record`) not billed yet: recorded since `since` (the last
   * firing; before the account opened, the first record), per app and meter, with what the next
   * firing bills for it.
   */
  metered: MeteredView;
  plans: Array<PlanDefinition & { current: boolean }>;
}

export interface MeteredView {
  since: string;
  amount: string;
  lines: Array<{ app: string; meter: string; microns: number; amount: string }>;
}

export interface PaymentMethodView {
  id: string;
  provider: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: boolean;
  created_at: string;
}

export interface CouponView {
  id: string;
  code: string;
  percent_off: number | null;
  amount_off: string | null;
  currency: string | null;
  description: string;
  created_at: string;
}

export interface RedemptionView {
  id: string;
  workspace_id: string;
  coupon: { id: string; code: string };
  status: 'pending' | 'applied';
  invoice_id: string | null;
  discount: string | null;
  created_at: string;
  applied_at: string | null;
}

/** Schedules a loop firing on the durable queue (inside the caller's transaction). */
export interface LoopScheduler {
  schedule(workspaceId: string, due: Date): Promise<void>;
}

const MONTHS: Record<Interval, number> = { monthly: 1, annual: 12 };
const day = (instant: Date) => instant.toISOString().slice(0, 10);

/**
 * The platform's billing (docs/billing.md): the plan catalog, plan and interval changes with their
 * invoices, the billing loop's firings, invoices, payment methods and coupons. Every change runs
 * in one transaction under a lock of the workspace's billing account, so two changes, or a change
 * and a loop firing, never interleave; an invoice's billing key is unique per workspace, so a
 * period is never billed twice.
 */
export class BillingService {
  private scheduler: LoopScheduler | null = null;

  constructor(
    private readonly sequelize: Sequelize,
    readonly config: BillingConfig,
    private readonly clock: () => Date,
    private readonly bus: EventBus,
    private readonly messages: MessagesService,
    readonly provider: PaymentProvider,
  ) {}

  /** The queue the loop's firings go on (set by the plugin once the worker exists). */
  useScheduler(scheduler: LoopScheduler): void {
    this.scheduler = scheduler;
  }

  plan(id: string): PlanDefinition | undefined {
    return this.config.plans.find((plan) => plan.id === id);
  }

  private price(planId: string, interval: Interval): bigint {
    const plan = this.plan(planId);
    // A workspace on a plan no longer in the catalog is billed nothing until it changes plan.
    return plan ? parseAmount(plan.seat_price[interval]) : 0n;
  }

  /** Seats: joined, active members. */
  async seats(workspaceId: string): Promise<number> {
    const [row] = await this.sequelize.query<{ seats: number }>(
      "SELECT count(*)::int AS seats FROM platform.members WHERE workspace_id = :workspaceId AND state = 'joined' AND deactivated_at IS NULL",
      { type: QueryTypes.SELECT, replacements: { workspaceId } },
    );
    return row.seats;
  }

  private async lockWorkspace(workspaceId: string): Promise<WorkspaceRow> {
    const [row] = await this.sequelize.query<WorkspaceRow>('SELECT id, plan, billing_interval, status FROM platform.workspaces WHERE id = :workspaceId FOR UPDATE', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    if (!row) throw new NotFoundError('No such workspace');
    return row;
  }

  private async account(workspaceId: string, lock = false): Promise<AccountRow | null> {
    const [row] = await this.sequelize.query<AccountRow>(`SELECT * FROM platform.billing_accounts WHERE workspace_id = :workspaceId${lock ? ' FOR UPDATE' : ''}`, {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    return row ? { ...row, anchor: new Date(row.anchor), period_start: new Date(row.period_start), period_end: new Date(row.period_end), usage_from: new Date(row.usage_from), next_run_at: new Date(row.next_run_at), past_due_since: row.past_due_since ? new Date(row.past_due_since) : null, metered_to: new Date(row.metered_to) } : null;
  }

  /**
   * The workspace's billing account, opened on its first billing change: the current period
   * starts now on the current plan and interval (already settled: a free workspace owes nothing
   * for it), and the loop's first firing is queued for its end.
   */
  private async openAccount(workspace: WorkspaceRow, now: Date): Promise<AccountRow> {
    const existing = await this.account(workspace.id, true);
    if (existing) return existing;
    const seats = await this.seats(workspace.id);
    const interval = workspace.billing_interval;
    const account: AccountRow = {
      workspace_id: workspace.id,
      loop: interval === 'annual' ? 'usage' : 'monthly',
      anchor: now,
      period_start: now,
      period_end: addMonths(now, MONTHS[interval]),
      seats_paid: seats,
      usage_from: now,
      run_index: 1,
      next_run_at: addMonths(now, 1),
      past_due_since: null,
      // Usage recorded before the account opened is billed at its first firing.
      metered_to: await this.unbilledSince(workspace.id, now),
    };
    await this.sequelize.query(
      `INSERT INTO platform.billing_accounts (workspace_id, loop, anchor, period_start, period_end, seats_paid, usage_from, run_index, next_run_at, past_due_since, metered_to, created_at, updated_at)
       VALUES (:workspace_id, :loop, :anchor, :period_start, :period_end, :seats_paid, :usage_from, :run_index, :next_run_at, NULL, :metered_to, :now, :now)`,
      { replacements: { ...account, now } },
    );
    await this.scheduler?.schedule(workspace.id, account.next_run_at);
    return account;
  }

  private async saveAccount(account: AccountRow, now: Date): Promise<void> {
    await this.sequelize.query(
      `UPDATE platform.billing_accounts SET loop = :loop, anchor = :anchor, period_start = :period_start, period_end = :period_end, seats_paid = :seats_paid,
              usage_from = :usage_from, run_index = :run_index, next_run_at = :next_run_at, metered_to = :metered_to, updated_at = :now
        WHERE workspace_id = :workspace_id`,
      { replacements: { ...account, now } },
    );
  }

  /** Where a workspace without a billing account has metered usage from: its first record (else `now`), never after `now`. */
  private async unbilledSince(workspaceId: string, now: Date): Promise<Date> {
    const [row] = await this.sequelize.query<{ first: Date | string | null }>('SELECT min(recorded_at) AS first FROM platform.metered_usage WHERE workspace_id = :workspaceId', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    const first = row?.first ? new Date(row.first) : null;
    return first && first.getTime() < now.getTime() ? first : now;
  }

  /** The metered usage not billed yet: since the account's `metered_to` (before it opened: all of it, which its first firing bills). */
  private async metered(workspaceId: string, account: AccountRow | null): Promise<MeteredView> {
    const since = account ? account.metered_to : await this.unbilledSince(workspaceId, this.clock());
    // Up to the end of time: a record stamped by a clock ahead of this process still shows.
    const lines = await meteredLines(this.sequelize, workspaceId, since, new Date(8.64e15));
    return { since: since.toISOString(), amount: formatAmount(lines.reduce((sum, line) => sum + line.cents, 0n)), lines: lines.map(presentMetered) };
  }

  /** `GET /plan`: the current plan, interval, seats, period and the catalog. */
  async subscription(workspaceId: string): Promise<SubscriptionView> {
    const [workspace] = await this.sequelize.query<WorkspaceRow>('SELECT id, plan, billing_interval, status FROM platform.workspaces WHERE id = :workspaceId', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    if (!workspace) throw new NotFoundError('No such workspace');
    const account = await this.account(workspaceId);
    return {
      plan: workspace.plan,
      billing_interval: workspace.billing_interval,
      currency: this.config.currency,
      seats: await this.seats(workspaceId),
      seats_paid: account ? account.seats_paid : null,
      period_start: account ? account.period_start.toISOString() : null,
      period_end: account ? account.period_end.toISOString() : null,
      next_run_at: account ? account.next_run_at.toISOString() : null,
      loop: account ? account.loop : null,
      billing_status: account?.past_due_since ? 'past_due' : 'current',
      past_due_since: account?.past_due_since ? account.past_due_since.toISOString() : null,
      metered: await this.metered(workspaceId, account),
      plans: this.config.plans.map((plan) => ({ ...plan, current: plan.id === workspace.plan })),
    };
  }

  /**
   * `PUT /plan`: switches at once. An upgrade (a higher seat price at the workspace's interval)
   * in the middle of a paid period is prorated on one `seats` invoice: a credit for the unused
   * part of the period at the old price, a charge for the same part at the new price, each line
   * `round_half_up(price_cents × seats × remaining_ms / period_ms)`. A downgrade or a plan of
   * the same price changes the price from the next period, with no invoice and no credit.
   */
  async changePlan(workspaceId: string, planId: string): Promise<{ subscription: SubscriptionView; invoice: InvoiceView | null }> {
    const target = this.plan(planId);
    if (!target) throw new InvalidError(`plan must be one of: ${this.config.plans.map((plan) => plan.id).join(', ')}`);
    const invoiceId = await this.sequelize.transaction(async () => {
      const now = this.clock();
      const workspace = await this.lockWorkspace(workspaceId);
      if (workspace.plan === planId) return null;
      const account = await this.openAccount(workspace, now);
      await this.sequelize.query('UPDATE platform.workspaces SET plan = :planId, updated_at = :now WHERE id = :workspaceId', { replacements: { planId, now, workspaceId } });
      const interval = workspace.billing_interval;
      const oldPrice = this.price(workspace.plan, interval);
      const newPrice = this.price(planId, interval);
      if (newPrice <= oldPrice || now.getTime() >= account.period_end.getTime()) return null;
      const remaining = BigInt(account.period_end.getTime() - now.getTime());
      const length = BigInt(account.period_end.getTime() - account.period_start.getTime());
      const seats = account.seats_paid;
      const oldName = this.plan(workspace.plan)?.name ?? workspace.plan;
      const lines: Line[] = [];
      // A credit of nothing (the old plan was free) is no line.
      if (oldPrice > 0n) lines.push({ description: `Unused time on ${oldName} (${day(now)} to ${day(account.period_end)})`, quantity: seats, unit: -oldPrice, amount: -roundHalfUp(oldPrice * BigInt(seats) * remaining, length) });
      lines.push({ description: `Remaining time on ${target.name} (${day(now)} to ${day(account.period_end)})`, quantity: seats, unit: newPrice, amount: roundHalfUp(newPrice * BigInt(seats) * remaining, length) });
      return this.issue(workspaceId, { key: `plan:${now.toISOString()}:${planId}`, kind: 'seats', plan: planId, interval, start: now, end: account.period_end, lines, now });
    });
    return { subscription: await this.subscription(workspaceId), invoice: invoiceId ? await this.invoice(workspaceId, invoiceId) : null };
  }

  /**
   * `PUT /plan/interval` (specification, "States and transitions"). Monthly → annual on an active
   * workspace bills the year upfront at once: one `seats` invoice for twelve months from now at
   * the annual seat price, less a credit for the unused part of the monthly period already paid
   * (same proration rule as a plan change); the loop stays as it is and converts itself to the
   * usage loop when it next fires. Annual → monthly only records the interval: the loop reads it
   * when it next fires. The same interval again changes nothing.
   */
  async changeInterval(workspaceId: string, interval: Interval): Promise<{ subscription: SubscriptionView; invoice: InvoiceView | null }> {
    const invoiceId = await this.sequelize.transaction(async () => {
      const now = this.clock();
      const workspace = await this.lockWorkspace(workspaceId);
      if (workspace.billing_interval === interval) return null;
      if (interval === 'annual' && workspace.status !== 'active') throw new ConflictError(`The workspace is ${workspace.status}: only an active workspace can move to annual billing`);
      const account = await this.openAccount(workspace, now);
      await this.sequelize.query('UPDATE platform.workspaces SET billing_interval = :interval, updated_at = :now WHERE id = :workspaceId', { replacements: { interval, now, workspaceId } });
      if (interval === 'monthly') return null;
      const seats = await this.seats(workspaceId);
      const annual = this.price(workspace.plan, 'annual');
      const monthly = this.price(workspace.plan, 'monthly');
      const end = addMonths(now, 12);
      const name = this.plan(workspace.plan)?.name ?? workspace.plan;
      const lines: Line[] = [];
      if (now.getTime() < account.period_end.getTime() && account.seats_paid > 0 && monthly > 0n) {
        const remaining = BigInt(account.period_end.getTime() - now.getTime());
        const length = BigInt(account.period_end.getTime() - account.period_start.getTime());
        lines.push({ description: `Unused time on ${name}, monthly (${day(now)} to ${day(account.period_end)})`, quantity: account.seats_paid, unit: -monthly, amount: -roundHalfUp(monthly * BigInt(account.seats_paid) * remaining, length) });
      }
      lines.push({ description: `${name}, annual seats (${day(now)} to ${day(end)})`, quantity: seats, unit: annual, amount: annual * BigInt(seats) });
      const id = await this.issue(workspaceId, { key: `annual:${now.toISOString()}`, kind: 'seats', plan: workspace.plan, interval: 'annual', start: now, end, lines, now });
      // The year is paid: the loop (still monthly) converts itself to the usage loop at its next firing.
      await this.saveAccount({ ...account, period_start: now, period_end: end, seats_paid: seats, usage_from: now }, now);
      return id;
    });
    return { subscription: await this.subscription(workspaceId), invoice: invoiceId ? await this.invoice(workspaceId, invoiceId) : null };
  }

  /**
   * One firing of the billing loop (docs/billing.md, "The loop"), run by the worker for the job
   * queued for `due`. Under the account's lock: a job whose instant is no longer the account's
   * next firing is stale and does nothing (a firing already ran: no period is billed twice).
   * Returns the invoices issued.
   */
  async fire(workspaceId: string, due: Date): Promise<string[]> {
    return this.sequelize.transaction(async () => {
      const account = await this.account(workspaceId, true);
      if (!account || account.next_run_at.getTime() !== due.getTime()) return [];
      const now = this.clock();
      if (now.getTime() < due.getTime()) return [];
      const [workspace] = await this.sequelize.query<WorkspaceRow>('SELECT id, plan, billing_interval, status FROM platform.workspaces WHERE id = :workspaceId', {
        type: QueryTypes.SELECT,
        replacements: { workspaceId },
      });
      if (!workspace) return [];
      const issued: string[] = [];
      const seats = await this.seats(workspaceId);
      const T = due;
      const name = this.plan(workspace.plan)?.name ?? workspace.plan;
      // Usage: seats beyond those paid for, at the monthly seat price, for the month that ended.
      const billUsage = async () => {
        const extra = seats - account.seats_paid;
        if (extra <= 0 || workspace.status !== 'active') return;
        const unit = this.price(workspace.plan, 'monthly');
        const id = await this.issue(workspaceId, {
          key: `usage:${T.toISOString()}`,
          kind: 'usage',
          plan: workspace.plan,
          interval: workspace.billing_interval,
          start: account.usage_from,
          end: T,
          lines: [{ description: `${name}, seats beyond the ${account.seats_paid} paid (${day(account.usage_from)} to ${day(T)})`, quantity: extra, unit, amount: unit * BigInt(extra) }],
          now,
        });
        if (id) issued.push(id);
      };
      // Metered usage (apps' ctx.usage.record) of the month this firing ends: every firing ends
      // one, a conversion firing too. Recorded in [metered_to, T), on its own usage invoice, one
      // line per app and meter, each rounded half up to the cent; billed whatever the workspace's
      // status but deleted (it was consumed), nothing when it rounds to zero.
      const billMetered = async () => {
        const from = account.metered_to;
        if (from.getTime() >= T.getTime() || workspace.status === 'deleted') return;
        const lines = (await meteredLines(this.sequelize, workspaceId, from, T)).filter((line) => line.cents > 0n);
        if (lines.length === 0) return;
        const id = await this.issue(workspaceId, {
          key: `metered:${T.toISOString()}`,
          kind: 'usage',
          plan: workspace.plan,
          interval: workspace.billing_interval,
          start: from,
          end: T,
          lines: lines.map((line) => ({ description: `${line.app} ${line.meter}: ${line.microns} microns (${day(from)} to ${day(T)})`, quantity: 1, unit: line.cents, amount: line.cents })),
          now,
        });
        if (id) issued.push(id);
      };
      let next: AccountRow;
      if (T.getTime() < account.period_end.getTime()) {
        // Inside a paid year. A monthly loop meets a year paid upfront: it converts itself to the
        // usage loop, whose firings fall monthly from the year's start (the first bills the
        // year's first month). A usage loop bills the month that ended.
        if (account.loop === 'monthly') {
          let index = 1;
          while (addMonths(account.period_start, index).getTime() <= T.getTime()) index += 1;
          await billMetered();
          next = { ...account, loop: 'usage', anchor: account.period_start, run_index: index, next_run_at: addMonths(account.period_start, index) };
        } else {
          await billUsage();
          await billMetered();
          next = { ...account, run_index: account.run_index + 1, usage_from: T, next_run_at: addMonths(account.anchor, account.run_index + 1) };
        }
        if (next.next_run_at.getTime() > account.period_end.getTime()) next.next_run_at = account.period_end;
      } else {
        // The paid period is over: usage of its last month, then the next period in advance, at the interval read now.
        if (account.loop === 'usage') await billUsage();
        await billMetered();
        const interval = workspace.billing_interval;
        const start = account.period_end;
        const end = addMonths(start, MONTHS[interval]);
        if (workspace.status === 'active') {
          const unit = this.price(workspace.plan, interval);
          const id = await this.issue(workspaceId, {
            key: `period:${start.toISOString()}`,
            kind: 'seats',
            plan: workspace.plan,
            interval,
            start,
            end,
            lines: [{ description: `${name}, ${interval} seats (${day(start)} to ${day(end)})`, quantity: seats, unit, amount: unit * BigInt(seats) }],
            now,
          });
          if (id) issued.push(id);
        }
        next = { ...account, loop: interval === 'annual' ? 'usage' : 'monthly', anchor: start, period_start: start, period_end: end, seats_paid: seats, usage_from: start, run_index: 1, next_run_at: addMonths(start, 1) };
      }
      await this.saveAccount({ ...next, metered_to: T.getTime() > account.metered_to.getTime() ? T : account.metered_to }, now);
      await this.scheduler?.schedule(workspaceId, next.next_run_at);
      return issued;
    });
  }

  /**
   * Issues an invoice (in the caller's transaction): applies the workspace's oldest pending coupon
   * to an invoice above zero, numbers it, stores it and its lines, emits
   * `core.billing.invoice.issued` and posts a notice to the workspace's billing messages. Returns
   * its id, or null when its billing key was billed already.
   */
  private async issue(workspaceId: string, input: { key: string; kind: 'seats' | 'usage'; plan: string; interval: Interval; start: Date; end: Date; lines: Line[]; now: Date }): Promise<string | null> {
    const [exists] = await this.sequelize.query<{ id: string }>('SELECT id FROM platform.invoices WHERE workspace_id = :workspaceId AND billing_key = :key', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId, key: input.key },
    });
    if (exists) return null;
    const lines = [...input.lines];
    let total = lines.reduce((sum, line) => sum + line.amount, 0n);
    const [redemption] = total > 0n
      ? await this.sequelize.query<{ id: string; code: string; percent_off: number | null; amount_off: string | null }>(
          `SELECT r.id, c.code, c.percent_off, c.amount_off FROM platform.coupon_redemptions r JOIN platform.coupons c ON c.id = r.coupon_id
            WHERE r.workspace_id = :workspaceId AND r.status = 'pending' ORDER BY r.created_at, r.id LIMIT 1 FOR UPDATE OF r`,
          { type: QueryTypes.SELECT, replacements: { workspaceId } },
        )
      : [];
    let discount = 0n;
    if (redemption) {
      discount = redemption.percent_off !== null ? roundHalfUp(total * BigInt(redemption.percent_off), 100n) : parseAmount(String(redemption.amount_off));
      if (discount > total) discount = total;
      lines.push({ description: `Coupon ${redemption.code}`, quantity: 1, unit: -discount, amount: -discount });
      total -= discount;
    }
    const [numbered] = await this.sequelize.query<{ next: number }>('SELECT coalesce(max(number), 0) + 1 AS next FROM platform.invoices WHERE workspace_id = :workspaceId', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    const due = new Date(input.now.getTime() + this.config.netDays * 86_400_000);
    // Nothing to collect (a free plan, a credit covering the charge): paid on issue. Else the
    // first charge is due at once (the billing worker's next pass).
    const settled = total <= 0n;
    const [invoice] = await this.sequelize.query<{ id: string }>(
      `INSERT INTO platform.invoices (workspace_id, number, billing_key, kind, plan, billing_interval, period_start, period_end, amount, currency, issued_at, due_at, status, paid_at, next_attempt_at, created_at)
       VALUES (:workspaceId, :number, :key, :kind, :plan, :interval, :start, :end, :amount, :currency, :now, :due, :status, :paidAt, :nextAttempt, :now) RETURNING id`,
      {
        type: QueryTypes.SELECT,
        replacements: {
          workspaceId,
          number: numbered.next,
          key: input.key,
          kind: input.kind,
          plan: input.plan,
          interval: input.interval,
          start: input.start,
          end: input.end,
          amount: formatAmount(total),
          currency: this.config.currency,
          now: input.now,
          due,
          status: settled ? 'paid' : 'open',
          paidAt: settled ? input.now : null,
          nextAttempt: settled ? null : input.now,
        },
      },
    );
    for (const [position, line] of lines.entries()) {
      await this.sequelize.query(
        'INSERT INTO platform.invoice_lines (workspace_id, invoice_id, position, description, quantity, unit_amount, amount) VALUES (:workspaceId, :invoiceId, :position, :description, :quantity, :unit, :amount)',
        { replacements: { workspaceId, invoiceId: invoice.id, position: position + 1, description: line.description.slice(0, 300), quantity: line.quantity, unit: formatAmount(line.unit), amount: formatAmount(line.amount) } },
      );
    }
    if (redemption) {
      await this.sequelize.query("UPDATE platform.coupon_redemptions SET status = 'applied', invoice_id = :invoiceId, discount = :discount, applied_at = :now WHERE workspace_id = :workspaceId AND id = :id", {
        replacements: { invoiceId: invoice.id, discount: formatAmount(discount), now: input.now, workspaceId, id: redemption.id },
      });
    }
    await this.bus.publish(workspaceId, [
      {
        emitter: 'billing',
        action: 'core.billing.invoice.issued',
        payload: { invoice_id: invoice.id, workspace_id: workspaceId, kind: input.kind, amount: formatAmount(total), currency: this.config.currency, period_start: input.start.toISOString(), period_end: input.end.toISOString(), due_at: due.toISOString() },
        metadata: {},
      },
    ]);
    await this.messages.post(workspaceId, 'billing', `Invoice ${numbered.next} (${input.kind}) of ${formatAmount(total)} ${this.config.currency} for ${day(input.start)} to ${day(input.end)} is due on ${day(due)}.`, input.now, `/invoices/${invoice.id}`);
    return invoice.id;
  }

  /** The workspace's invoices, newest first, each with its lines. */
  async invoices(workspaceId: string, page: { offset: number; limit: number }): Promise<{ rows: InvoiceView[]; total: number }> {
    const [count] = await this.sequelize.query<{ total: number }>('SELECT count(*)::int AS total FROM platform.invoices WHERE workspace_id = :workspaceId', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    const rows = await this.sequelize.query<Record<string, unknown>>(
      'SELECT * FROM platform.invoices WHERE workspace_id = :workspaceId ORDER BY issued_at DESC, number DESC LIMIT :limit OFFSET :offset',
      { type: QueryTypes.SELECT, replacements: { workspaceId, limit: page.limit, offset: page.offset } },
    );
    return { rows: await this.withLines(workspaceId, rows), total: count.total };
  }

  async invoice(workspaceId: string, invoiceId: string): Promise<InvoiceView> {
    const rows = /^[0-9a-f-]{36}$/i.test(invoiceId)
      ? await this.sequelize.query<Record<string, unknown>>('SELECT * FROM platform.invoices WHERE workspace_id = :workspaceId AND id = :invoiceId', { type: QueryTypes.SELECT, replacements: { workspaceId, invoiceId } })
      : [];
    if (rows.length === 0) throw new NotFoundError(`No invoice ${invoiceId}`);
    return (await this.withLines(workspaceId, rows))[0];
  }

  private async withLines(workspaceId: string, rows: Array<Record<string, unknown>>): Promise<InvoiceView[]> {
    if (rows.length === 0) return [];
    const lines = await this.sequelize.query<{ invoice_id: string; description: string; quantity: number; unit_amount: string; amount: string }>(
      'SELECT invoice_id, description, quantity, unit_amount, amount FROM platform.invoice_lines WHERE workspace_id = :workspaceId AND invoice_id IN (:ids) ORDER BY invoice_id, position',
      { type: QueryTypes.SELECT, replacements: { workspaceId, ids: rows.map((row) => row.id) } },
    );
    const money = (value: unknown) => formatAmount(parseAmount(String(value)));
    return rows.map((row) => ({
      id: row.id as string,
      number: row.number as number,
      kind: row.kind as 'seats' | 'usage',
      plan: row.plan as string,
      billing_interval: row.billing_interval as Interval,
      period_start: new Date(row.period_start as string).toISOString(),
      period_end: new Date(row.period_end as string).toISOString(),
      amount: money(row.amount),
      currency: String(row.currency),
      status: row.status as InvoiceStatus,
      issued_at: new Date(row.issued_at as string).toISOString(),
      due_at: new Date(row.due_at as string).toISOString(),
      attempt_count: Number(row.attempt_count),
      next_attempt_at: row.next_attempt_at ? new Date(row.next_attempt_at as string).toISOString() : null,
      last_payment_error: (row.last_payment_error as string | null) ?? null,
      paid_at: row.paid_at ? new Date(row.paid_at as string).toISOString() : null,
      lines: lines.filter((line) => line.invoice_id === row.id).map((line) => ({ description: line.description, quantity: line.quantity, unit_amount: money(line.unit_amount), amount: money(line.amount) })),
    }));
  }

  /**
   * `POST /payment-methods`: the card goes to the provider and nowhere else; the row keeps the
   * provider's token, the brand, the last four digits and the expiry. The first card is the
   * default; so is a card added while an invoice is unpaid (that is why one adds it then), and
   * every unpaid invoice is then charged again at the worker's next pass.
   */
  async addPaymentMethod(workspaceId: string, memberId: string, card: CardInput): Promise<PaymentMethodView> {
    const tokenized = await this.provider.tokenize(card, { workspaceId });
    return this.sequelize.transaction(async () => {
      const now = this.clock();
      await this.lockWorkspace(workspaceId);
      const [existing] = await this.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM platform.payment_methods WHERE workspace_id = :workspaceId', { type: QueryTypes.SELECT, replacements: { workspaceId } });
      const unpaid = await this.unpaidCount(workspaceId);
      const isDefault = existing.n === 0 || unpaid > 0;
      if (isDefault) await this.sequelize.query('UPDATE platform.payment_methods SET is_default = false WHERE workspace_id = :workspaceId AND is_default', { replacements: { workspaceId } });
      const [row] = await this.sequelize.query<Record<string, unknown>>(
        `INSERT INTO platform.payment_methods (workspace_id, provider, provider_token, brand, last4, exp_month, exp_year, is_default, created_by, created_at)
         VALUES (:workspaceId, :provider, :token, :brand, :last4, :month, :year, :isDefault, :memberId, :now) RETURNING *`,
        { type: QueryTypes.SELECT, replacements: { workspaceId, provider: this.provider.name, token: tokenized.token, brand: tokenized.brand, last4: tokenized.last4, month: tokenized.exp_month, year: tokenized.exp_year, isDefault, memberId, now } },
      );
      await this.messages.post(workspaceId, 'billing', `A ${tokenized.brand} card ending in ${tokenized.last4} was added${isDefault && existing.n > 0 ? ' and is now the default card' : ''}.`, now);
      if (isDefault) await this.retryUnpaid(workspaceId, now);
      return presentMethod(row);
    });
  }

  async paymentMethods(workspaceId: string): Promise<PaymentMethodView[]> {
    const rows = await this.sequelize.query<Record<string, unknown>>('SELECT * FROM platform.payment_methods WHERE workspace_id = :workspaceId ORDER BY created_at, is_default DESC, id', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId },
    });
    return rows.map(presentMethod);
  }

  private async lockMethod(workspaceId: string, methodId: string): Promise<Record<string, unknown>> {
    const [row] = /^[0-9a-f-]{36}$/i.test(methodId)
      ? await this.sequelize.query<Record<string, unknown>>('SELECT * FROM platform.payment_methods WHERE workspace_id = :workspaceId AND id = :methodId FOR UPDATE', { type: QueryTypes.SELECT, replacements: { workspaceId, methodId } })
      : [];
    if (!row) throw new NotFoundError(`No payment method ${methodId}`);
    return row;
  }

  /** Invoices of the workspace still to be paid (`open` or `past_due`). */
  private async unpaidCount(workspaceId: string): Promise<number> {
    const [row] = await this.sequelize.query<{ n: number }>("SELECT count(*)::int AS n FROM platform.invoices WHERE workspace_id = :workspaceId AND status IN ('open', 'past_due')", { type: QueryTypes.SELECT, replacements: { workspaceId } });
    return row.n;
  }

  /** A new default card: every unpaid invoice is charged again at the worker's next pass (also one whose retries ran out). */
  private async retryUnpaid(workspaceId: string, now: Date): Promise<void> {
    await this.sequelize.query("UPDATE platform.invoices SET next_attempt_at = :now WHERE workspace_id = :workspaceId AND status IN ('open', 'past_due')", { replacements: { workspaceId, now } });
  }

  /**
   * `PATCH /payment-methods/{id}` with `is_default: true`: makes the card the one charged (the
   * others stop being the default); unpaid invoices are charged again to it.
   */
  async makeDefault(workspaceId: string, methodId: string): Promise<PaymentMethodView> {
    return this.sequelize.transaction(async () => {
      const now = this.clock();
      await this.lockWorkspace(workspaceId);
      const row = await this.lockMethod(workspaceId, methodId);
      if (row.is_default) return presentMethod(row);
      await this.sequelize.query('UPDATE platform.payment_methods SET is_default = (id = :methodId) WHERE workspace_id = :workspaceId', { replacements: { workspaceId, methodId } });
      await this.messages.post(workspaceId, 'billing', `The ${String(row.brand)} card ending in ${String(row.last4)} is now the default card.`, now);
      await this.retryUnpaid(workspaceId, now);
      return presentMethod({ ...row, is_default: true });
    });
  }

  /**
   * `DELETE /payment-methods/{id}`: the provider forgets the token (Stripe: detach), then the row
   * goes. The last card stays while the workspace is on a paid plan or owes an invoice (409: add
   * another card first); removing the default card makes the most recently added other card the
   * default.
   */
  async removePaymentMethod(workspaceId: string, methodId: string): Promise<{ removed: PaymentMethodView; default_id: string | null }> {
    return this.sequelize.transaction(async () => {
      const now = this.clock();
      const workspace = await this.lockWorkspace(workspaceId);
      const row = await this.lockMethod(workspaceId, methodId);
      const others = await this.sequelize.query<{ id: string; brand: string; last4: string; is_default: boolean }>(
        'SELECT id, brand, last4, is_default FROM platform.payment_methods WHERE workspace_id = :workspaceId AND id <> :methodId ORDER BY created_at DESC, id DESC',
        { type: QueryTypes.SELECT, replacements: { workspaceId, methodId } },
      );
      if (others.length === 0) {
        if (await this.unpaidCount(workspaceId)) throw new ConflictError('This is the only card and an invoice is unpaid: add another card before removing it');
        if (this.price(workspace.plan, workspace.billing_interval) > 0n) throw new ConflictError(`This is the only card and the workspace is on the paid plan ${this.plan(workspace.plan)?.name ?? workspace.plan}: add another card before removing it, or move to the free plan`);
      }
      if (row.provider === this.provider.name) await this.provider.detach(String(row.provider_token));
      await this.sequelize.query('DELETE FROM platform.payment_methods WHERE workspace_id = :workspaceId AND id = :methodId', { replacements: { workspaceId, methodId } });
      let defaultId = others.find((other) => other.is_default)?.id ?? null;
      let note = `The ${String(row.brand)} card ending in ${String(row.last4)} was removed.`;
      if (row.is_default && others.length > 0) {
        defaultId = others[0].id;
        await this.sequelize.query('UPDATE platform.payment_methods SET is_default = true WHERE workspace_id = :workspaceId AND id = :id', { replacements: { workspaceId, id: defaultId } });
        note += ` The ${others[0].brand} card ending in ${others[0].last4} is now the default card.`;
      }
      await this.messages.post(workspaceId, 'billing', note, now);
      return { removed: presentMethod(row), default_id: defaultId };
    });
  }

  // Collection and dunning (docs/billing.md, "Collection and dunning").

  /**
   * The invoices of every workspace whose next charge is due by the runtime's clock, each tried
   * once (in its own transaction). Returns how many attempts were made; a failing attempt is
   * reported to `onError` and retried at the next pass.
   */
  async collectDue(onError: (error: unknown, invoice: { workspace_id: string; id: string }) => void = () => {}, limit = 50): Promise<number> {
    const due = await this.sequelize.query<{ workspace_id: string; id: string }>(
      "SELECT workspace_id, id FROM platform.invoices WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= :now AND status IN ('open', 'past_due') ORDER BY next_attempt_at, workspace_id, id LIMIT :limit",
      { type: QueryTypes.SELECT, replacements: { now: this.clock(), limit } },
    );
    let attempted = 0;
    for (const invoice of due) {
      try {
        if ((await this.attempt(invoice.workspace_id, invoice.id)) !== 'skipped') attempted += 1;
      } catch (error) {
        onError(error, invoice);
      }
    }
    return attempted;
  }

  /**
   * One charge of an invoice to the workspace's default card, under the invoice's lock (a second
   * process skips it). The provider gets an idempotency key per attempt, and the attempt's count
   * moves only when its outcome commits: a process that dies after the provider charged retries
   * with the same key and the provider answers the same charge, so an invoice is never charged
   * twice. Paid: `core.billing.invoice.paid`. Declined (or no card): `past_due`,
   * `core.billing.invoice.payment_failed`, the next attempt after the schedule's next number of
   * days; when none is left the workspace is marked past due (`core.billing.dunning.exhausted`).
   * A provider that cannot be reached is no attempt: it is tried again in an hour.
   */
  async attempt(workspaceId: string, invoiceId: string): Promise<AttemptOutcome> {
    return this.sequelize.transaction(async () => {
      const now = this.clock();
      const [invoice] = await this.sequelize.query<{ id: string; number: number; amount: string; currency: string; status: InvoiceStatus; attempt_count: number; next_attempt_at: Date | null }>(
        'SELECT id, number, amount, currency, status, attempt_count, next_attempt_at FROM platform.invoices WHERE workspace_id = :workspaceId AND id = :invoiceId FOR UPDATE SKIP LOCKED',
        { type: QueryTypes.SELECT, replacements: { workspaceId, invoiceId } },
      );
      if (!invoice || (invoice.status !== 'open' && invoice.status !== 'past_due') || !invoice.next_attempt_at || new Date(invoice.next_attempt_at).getTime() > now.getTime()) return 'skipped';
      const amount = formatAmount(parseAmount(String(invoice.amount)));
      const [card] = await this.sequelize.query<{ id: string; provider: string; provider_token: string; brand: string; last4: string }>(
        'SELECT id, provider, provider_token, brand, last4 FROM platform.payment_methods WHERE workspace_id = :workspaceId AND is_default',
        { type: QueryTypes.SELECT, replacements: { workspaceId } },
      );
      const attempt = invoice.attempt_count + 1;
      let chargeId: string | null = null;
      let failure: string;
      if (!card) failure = 'No card on file';
      else if (card.provider !== this.provider.name) failure = `The default card was added through ${card.provider}, which is no longer the payment provider`;
      else {
        try {
          chargeId = (
            await this.provider.charge({
              token: card.provider_token,
              amount: parseAmount(amount),
              currency: invoice.currency,
              idempotencyKey: `wpk-invoice-${invoice.id}-attempt-${attempt}`,
              description: `Invoice ${invoice.number}`,
              metadata: { workspace_id: workspaceId, invoice_id: invoice.id },
            })
          ).id;
          failure = '';
        } catch (error) {
          if (error instanceof ProviderUnavailableError) {
            await this.sequelize.query('UPDATE platform.invoices SET next_attempt_at = :later WHERE workspace_id = :workspaceId AND id = :invoiceId', {
              replacements: { later: new Date(now.getTime() + 3_600_000), workspaceId, invoiceId },
            });
            return 'postponed';
          }
          if (!(error instanceof CardDeclinedError)) throw error;
          failure = error.message.slice(0, 300);
        }
      }
      const base = { invoice_id: invoice.id, workspace_id: workspaceId, amount, currency: invoice.currency };
      if (chargeId && card) {
        await this.sequelize.query(
          `UPDATE platform.invoices SET status = 'paid', paid_at = :now, attempt_count = :attempt, next_attempt_at = NULL, last_payment_error = NULL, payment_method_id = :cardId, provider_charge_id = :chargeId
            WHERE workspace_id = :workspaceId AND id = :invoiceId`,
          { replacements: { now, attempt, cardId: card.id, chargeId, workspaceId, invoiceId } },
        );
        await this.bus.publish(workspaceId, [{ emitter: 'billing', action: 'core.billing.invoice.paid', payload: { ...base, attempt_count: attempt, paid_at: now.toISOString() }, metadata: {} }]);
        await this.messages.post(workspaceId, 'billing', `Invoice ${invoice.number} of ${amount} ${invoice.currency} was paid with the ${card.brand} card ending in ${card.last4}.`, now, `/invoices/${invoice.id}`);
        // The last unpaid invoice paid: the workspace is no longer past due.
        if ((await this.unpaidCount(workspaceId)) === 0) {
          const [{ cleared }] = await this.sequelize.query<{ cleared: number }>(
            'WITH c AS (UPDATE platform.billing_accounts SET past_due_since = NULL, updated_at = :now WHERE workspace_id = :workspaceId AND past_due_since IS NOT NULL RETURNING 1) SELECT count(*)::int AS cleared FROM c',
            { type: QueryTypes.SELECT, replacements: { now, workspaceId } },
          );
          if (cleared) await this.messages.post(workspaceId, 'billing', 'Every invoice is paid: the workspace is no longer past due.', now);
        }
        return 'paid';
      }
      const days = this.config.retryDays[attempt - 1];
      const next = days === undefined ? null : new Date(now.getTime() + days * 86_400_000);
      await this.sequelize.query(
        "UPDATE platform.invoices SET status = 'past_due', attempt_count = :attempt, next_attempt_at = :next, last_payment_error = :failure WHERE workspace_id = :workspaceId AND id = :invoiceId",
        { replacements: { attempt, next, failure, workspaceId, invoiceId } },
      );
      await this.bus.publish(workspaceId, [
        { emitter: 'billing', action: 'core.billing.invoice.payment_failed', payload: { ...base, attempt_count: attempt, error: failure, ...(next ? { next_attempt_at: next.toISOString() } : {}) }, metadata: {} },
      ]);
      const then = next ? `It will be charged again on ${day(next)}.` : 'No retry is left: add a card, or choose another default card, to pay it.';
      await this.messages.post(workspaceId, 'billing', `The payment of invoice ${invoice.number} (${amount} ${invoice.currency}) failed: ${failure.replace(/\.$/, '')}. ${then}`, now, `/invoices/${invoice.id}`);
      if (!next) {
        const [{ marked }] = await this.sequelize.query<{ marked: number }>(
          'WITH m AS (UPDATE platform.billing_accounts SET past_due_since = :now, updated_at = :now WHERE workspace_id = :workspaceId AND past_due_since IS NULL RETURNING 1) SELECT count(*)::int AS marked FROM m',
          { type: QueryTypes.SELECT, replacements: { now, workspaceId } },
        );
        if (marked) {
          await this.bus.publish(workspaceId, [{ emitter: 'billing', action: 'core.billing.dunning.exhausted', payload: { workspace_id: workspaceId, invoice_id: invoice.id, since: now.toISOString() }, metadata: {} }]);
          await this.messages.post(workspaceId, 'billing', `The workspace is past due: invoice ${invoice.number} could not be charged after ${attempt} attempts.`, now, `/invoices/${invoice.id}`);
        }
      }
      return 'failed';
    });
  }

  // Coupons (operators).

  async createCoupon(input: { code: string; percent_off?: number; amount_off?: string; description?: string }): Promise<CouponView> {
    if ((input.percent_off === undefined) === (input.amount_off === undefined)) throw new InvalidError('give either percent_off or amount_off');
    let amountOff: string | null = null;
    if (input.amount_off !== undefined) {
      let cents: bigint;
      try {
        cents = parseAmount(input.amount_off);
      } catch {
        throw new InvalidError('amount_off must be a decimal amount with at most two places, e.g. "10.00"');
      }
      if (cents <= 0n) throw new InvalidError('amount_off must be above zero');
      amountOff = formatAmount(cents);
    }
    const [taken] = await this.sequelize.query('SELECT 1 FROM platform.coupons WHERE upper(code) = upper(:code)', { type: QueryTypes.SELECT, replacements: { code: input.code } });
    if (taken) throw new ConflictError(`A coupon with code ${input.code} exists already`);
    const [row] = await this.sequelize.query<Record<string, unknown>>(
      'INSERT INTO platform.coupons (code, percent_off, amount_off, currency, description, created_at) VALUES (:code, :percent, :amount, :currency, :description, :now) RETURNING *',
      { type: QueryTypes.SELECT, replacements: { code: input.code, percent: input.percent_off ?? null, amount: amountOff, currency: amountOff ? this.config.currency : null, description: input.description ?? '', now: this.clock() } },
    );
    return presentCoupon(row);
  }

  async coupons(): Promise<CouponView[]> {
    return (await this.sequelize.query<Record<string, unknown>>('SELECT * FROM platform.coupons ORDER BY created_at, code', { type: QueryTypes.SELECT })).map(presentCoupon);
  }

  /** Gives a workspace a coupon: a pending redemption, applied to its next invoice above zero. */
  async redeem(couponId: string, workspaceId: string): Promise<RedemptionView> {
    const [coupon] = /^[0-9a-f-]{36}$/i.test(couponId) ? await this.sequelize.query<{ id: string }>('SELECT id FROM platform.coupons WHERE id = :couponId', { type: QueryTypes.SELECT, replacements: { couponId } }) : [];
    if (!coupon) throw new NotFoundError(`No coupon ${couponId}`);
    const [workspace] = /^[0-9a-f-]{36}$/i.test(workspaceId) ? await this.sequelize.query('SELECT id FROM platform.workspaces WHERE id = :workspaceId', { type: QueryTypes.SELECT, replacements: { workspaceId } }) : [];
    if (!workspace) throw new NotFoundError(`No workspace ${workspaceId}`);
    const [row] = await this.sequelize.query<{ id: string }>('INSERT INTO platform.coupon_redemptions (workspace_id, coupon_id, created_at) VALUES (:workspaceId, :couponId, :now) RETURNING id', {
      type: QueryTypes.SELECT,
      replacements: { workspaceId, couponId, now: this.clock() },
    });
    return (await this.redemptions({ workspaceId, id: row.id }))[0];
  }

  /** Redemptions, newest first; of one workspace, or one by id (operators name it by id alone). */
  async redemptions(filter: { workspaceId?: string; id?: string } = {}): Promise<RedemptionView[]> {
    const where: string[] = [];
    if (filter.workspaceId) where.push('r.workspace_id = :workspaceId');
    if (filter.id) where.push('r.id = :id');
    const rows = await this.sequelize.query<Record<string, unknown>>(
      `SELECT r.*, c.code FROM platform.coupon_redemptions r JOIN platform.coupons c ON c.id = r.coupon_id${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY r.created_at DESC, r.id`,
      { type: QueryTypes.SELECT, replacements: filter },
    );
    return rows.map((row) => ({
      id: row.id as string,
      workspace_id: row.workspace_id as string,
      coupon: { id: row.coupon_id as string, code: row.code as string },
      status: row.status as 'pending' | 'applied',
      invoice_id: (row.invoice_id as string | null) ?? null,
      discount: row.discount === null ? null : formatAmount(parseAmount(String(row.discount))),
      created_at: new Date(row.created_at as string).toISOString(),
      applied_at: row.applied_at ? new Date(row.applied_at as string).toISOString() : null,
    }));
  }

  /** Withdraws a pending redemption. One already applied to an invoice stays (409): the invoice is issued. */
  async deleteRedemption(id: string): Promise<void> {
    const [found] = /^[0-9a-f-]{36}$/i.test(id) ? await this.redemptions({ id }) : [];
    if (!found) throw new NotFoundError(`No coupon redemption ${id}`);
    if (found.status === 'applied') throw new ConflictError('This redemption was applied to an invoice already and cannot be withdrawn');
    await this.sequelize.query("DELETE FROM platform.coupon_redemptions WHERE workspace_id = :workspaceId AND id = :id AND status = 'pending'", { replacements: { workspaceId: found.workspace_id, id } });
  }
}

function presentMethod(row: Record<string, unknown>): PaymentMethodView {
  return {
    id: row.id as string,
    provider: row.provider as string,
    brand: row.brand as string,
    last4: row.last4 as string,
    exp_month: Number(row.exp_month),
    exp_year: Number(row.exp_year),
    is_default: row.is_default as boolean,
    created_at: new Date(row.created_at as string).toISOString(),
  };
}

function presentCoupon(row: Record<string, unknown>): CouponView {
  return {
    id: row.id as string,
    code: row.code as string,
    percent_off: row.percent_off === null ? null : Number(row.percent_off),
    amount_off: row.amount_off === null ? null : formatAmount(parseAmount(String(row.amount_off))),
    currency: (row.currency as string | null) ?? null,
    description: row.description as string,
    created_at: new Date(row.created_at as string).toISOString(),
  };
}
