// @ts-check
/**
 * Entry of the standalone page's one bundle (scripts/build/standalone.mjs):
 * the standalone start first (boot.js), then the page (main.js), which
 * takes the wasm and the scenario from the inline blocks
 * (standalone/inlined.js). The site's lazily loaded panels are left out:
 * they need workers (see boot.js).
 * @module standalone/entry
 */

import './boot.js';
import '../main.js';
