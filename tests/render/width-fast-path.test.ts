import { it, expect } from "vitest";
import stringWidth from "string-width";
import { displayWidth } from "../../src/render/wrap.js";
it("the fast path agrees with string-width on every character it accepts", () => {
  for (let c = 0; c < 0x3000; c++) {
    const s = String.fromCharCode(c);
    expect([c, displayWidth("a" + s + "b")]).toEqual([c, stringWidth("a" + s + "b")]);
  }
});
