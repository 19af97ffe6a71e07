// The app's package exports its definition, which the platform's loader reads at run time (with
// app.json); no code imports an app (apps share data only through events), so its declaration
// says what it is rather than every model's shape (docs/decisions/0290-app-package-declarations.md).
import type { AppDefinition } from '@wpk/sdk';

declare const app: AppDefinition;
export default app;
