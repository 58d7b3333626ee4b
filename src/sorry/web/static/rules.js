// @ts-check
// The rules page (/rules): the server writes the rules into it in the page's language
// (sorry.howto); the script only runs the language menu.

import { initLanguage } from "./i18n.js";

initLanguage();
