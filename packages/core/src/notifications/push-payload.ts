/** What a push (browser or phone) carries: enough for the device to show the notification and open it. */
export interface PushMessage {
  /** The notification's id (`GET /notifications`). */
  id: string;
  kind: string;
  channel: string;
  title: string;
  body: string;
  /** Path in the workspace to open, or null. */
  link: string | null;
  /** The member's sound for the channel (`none`: silent). */
  sound: string;
  /** The workspace's subdomain, so a device signed in to several knows which one. */
  workspace: string;
}
