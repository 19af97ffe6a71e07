/**
 * The Web Awesome components the kit builds on (its free, MIT-licensed set), registered once.
 * Icons: the kit never loads Font Awesome's CDN. The default library is pointed at Web Awesome's
 * system icons, which ship inside the bundle as inline SVG.
 */
import '@awesome.me/webawesome/dist/components/button/button.js';
import '@awesome.me/webawesome/dist/components/dialog/dialog.js';
import '@awesome.me/webawesome/dist/components/input/input.js';
import '@awesome.me/webawesome/dist/components/textarea/textarea.js';
import '@awesome.me/webawesome/dist/components/select/select.js';
import '@awesome.me/webawesome/dist/components/option/option.js';
import '@awesome.me/webawesome/dist/components/checkbox/checkbox.js';
import '@awesome.me/webawesome/dist/components/dropdown/dropdown.js';
import '@awesome.me/webawesome/dist/components/dropdown-item/dropdown-item.js';
import '@awesome.me/webawesome/dist/components/spinner/spinner.js';
import '@awesome.me/webawesome/dist/components/callout/callout.js';
import '@awesome.me/webawesome/dist/components/badge/badge.js';
import '@awesome.me/webawesome/dist/components/progress-bar/progress-bar.js';
import { registerIconLibrary } from '@awesome.me/webawesome/dist/components/icon/library.js';
import systemLibrary from '@awesome.me/webawesome/dist/components/icon/library.system.js';

registerIconLibrary('default', { resolver: (name, family, variant, autoWidth) => systemLibrary.resolver(name, family, variant, autoWidth), mutator: systemLibrary.mutator, spriteSheet: false });
