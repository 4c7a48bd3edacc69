#!/usr/bin/env python3
"""html_lines.py - the deciding line and the inlined frames of a ttdiff HTML
page in headless Chromium (DevTools protocol, html_cdp.py's client): the
deciding-line block is rendered in the first screen, its source lines are
there with the bad, good and common lines marked (each visible, not
covered: the element at its centre is itself), the stack shows FUNC with
an "inlined" tag; saves a screenshot.

usage: html_lines.py CHROMIUM PAGE.html PROFILE_DIR SHOT.png FUNC BAD GOOD COMMON
(BAD, GOOD, COMMON: the functions called on those lines). Exit 0 when every
check passes, 1 with a FAIL line otherwise.
"""
import base64
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_cdp import Page, WebSocket, expect, fail, page_target, start, wait_loaded  # noqa: E402


def visible_text(p, sel):
    """Text of the element sel if it is rendered and not covered, else None."""
    return p.js("""(function () {
        var e = document.querySelector(%r);
        if (!e) return null;
        var r = e.getBoundingClientRect();
        if (r.width <= 0 || r.height <= 0 || r.top < 0 || r.bottom > innerHeight) return null;
        var at = document.elementFromPoint(r.left + Math.min(20, r.width / 2), r.top + r.height / 2);
        return at && (at === e || e.contains(at)) ? e.textContent : null;
    })()""" % sel)


def checks(p, shot, func, bad, good, common):
    wait_loaded(p)
    text = visible_text(p, "#tt-lines")
    if not text or "Deciding line" not in text or func not in text:
        fail("deciding line not shown in the first screen: %r" % text)
    print("ok: deciding line shown")
    for cls, call in (("sb", bad), ("sg", good), ("sc", common)):
        t = visible_text(p, "#tt-lines pre.src span." + cls)
        if not t or call not in t:
            fail("source line .%s: %r, want a line calling %s" % (cls, t, call))
        print("ok: .%s line shows %r" % (cls, t.strip()))
    colour = p.js("getComputedStyle(document.querySelector('#tt-lines span.sb'))"
                  ".backgroundColor")
    if colour in (None, "", "rgba(0, 0, 0, 0)", "transparent"):
        fail("bad line not highlighted: %r" % colour)
    inl = p.js("[].map.call(document.querySelectorAll('#tt-stack li.inl'),"
               "function(e){return e.textContent})")
    if not inl or func not in inl[-1] or "inlined" not in inl[-1]:
        fail("no inlined %s frame in the stack: %r" % (func, inl))
    print("ok: inlined frame %r" % inl[-1])
    expect("verdict names it", func in p.js("document.querySelector('.verdict').textContent"), True)
    png = p.call("Page.captureScreenshot", format="png")["data"]
    with open(shot, "wb") as f:
        f.write(base64.b64decode(png))
    errors = [e for e in p.events if e.get("method") == "Runtime.exceptionThrown"]
    if errors:
        fail("script errors: %r" % errors[:3])


def main():
    if len(sys.argv) != 9:
        print(__doc__.split("\n\n")[1])
        sys.exit(2)
    chrome, page, profile, shot, func, bad, good, common = sys.argv[1:]
    url = "file://" + os.path.abspath(page)
    proc, port = start(chrome, url, profile)
    try:
        p = Page(WebSocket(page_target(port, url[:5])))
        p.call("Runtime.enable")
        checks(p, shot, func, bad, good, common)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    print("ok: html lines checks passed")


if __name__ == "__main__":
    main()
