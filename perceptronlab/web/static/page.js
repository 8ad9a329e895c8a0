// The served page: mount the lab on #lab (a file, not an inline script: the page's CSP allows only 'self').
import { mountPage } from "./lab.js";

mountPage(document.getElementById("lab"));
