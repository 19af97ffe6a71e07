import { DataTypes, defineModel } from '@wpk/sdk';

/** One greeting, in the app's own table `ext_acme_hello.greetings`. */
export interface Greeting {
  id: string;
  sender_id: string;
  sender_name: string;
  recipient_id: string | null;
  text: string;
  created_at: Date;
}

/** The app's models; `ctx.db.greetings` is this one, scoped to the request's workspace. */
export const models = {
  greetings: defineModel<Greeting>('greetings', {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    sender_id: { type: DataTypes.UUID, allowNull: false },
    sender_name: { type: DataTypes.STRING(200), allowNull: false },
    recipient_id: { type: DataTypes.UUID, allowNull: true },
    text: { type: DataTypes.STRING(300), allowNull: false },
  }),
};

export type Models = typeof models;
