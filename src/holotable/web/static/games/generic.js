// The fallback renderer for games without a page of their own: the seat's view as readable
// key/values and the legal moves as buttons. Enough to play any game, if not prettily.

import { h } from "../js/dom.js";
import { legalButtons, viewFacts } from "./common.js";

export default {
  prompt(ctx) {
    return ctx.legal.length === 1 ? `press "${ctx.legal[0]}"` : `choose one of ${ctx.legal.length} moves below`;
  },
  render(ctx) {
    return [
      legalButtons(ctx),
      h("section", { class: "panel", "aria-labelledby": "view-title" },
        h("h2", { id: "view-title" }, ctx.seat === null ? "The table" : "What you see"),
        viewFacts(ctx.view)),
    ];
  },
};
