#!/usr/bin/env python3
"""html_cdp.py - drive headless Chromium over the DevTools protocol to check
the ttdiff HTML report: real key presses (n, p) move between divergences,
the filter box hides rows, no script error, nothing injected ran; saves a
screenshot. Standard library only, with a minimal WebSocket client.

usage: html_cdp.py CHROMIUM PAGE.html PROFILE_DIR SHOT.png NDIVS
       html_cdp.py --nojs CHROMIUM PAGE.html PROFILE_DIR OUT.html
The second form loads the page with scripts disabled and writes its DOM
(--dump-dom needs scripts). Exit 0 when every check passes, 1 with a FAIL
line otherwise.
"""
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import time
import urllib.request


class WebSocket:
    """Just enough of RFC 6455 for CDP: text frames, client masking."""

    def __init__(self, url):
        rest = url[len("ws://"):]
        hostport, path = rest.split("/", 1)
        host, port = hostport.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n" % (path, hostport, key))
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise IOError("websocket: connection closed in handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise IOError("websocket: handshake refused: %r" % head[:80])

    def send(self, text):
        data = text.encode()
        n = len(data)
        if n < 126:
            hdr = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            hdr = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            hdr = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        mask = os.urandom(4)
        body = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(hdr + mask + body)

    def _exact(self, n):
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise IOError("websocket: connection closed")
            buf += chunk
        return buf

    def recv(self):
        """The next whole text message (pings answered, fragments joined)."""
        parts = []
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._exact(8))[0]
            mask = self._exact(4) if b1 & 0x80 else None
            data = self._exact(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            op = b0 & 0x0F
            if op == 8:
                raise IOError("websocket: closed by the browser")
            if op == 9:
                self.sock.sendall(struct.pack("!BB", 0x8A, 0x80) + b"\0\0\0\0")
                continue
            if op in (0, 1, 2):
                parts.append(data)
                if b0 & 0x80:
                    return b"".join(parts).decode()


class Page:
    """A CDP session on one page target."""

    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method,
                                 "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def js(self, expr):
        res = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if "exceptionDetails" in res:
            raise RuntimeError("evaluate %s: %s" % (expr, res["exceptionDetails"]))
        return res["result"].get("value")

    def key(self, ch):
        code = ord(ch.upper())
        for kind in ("keyDown", "keyUp"):
            extra = {"text": ch} if kind == "keyDown" else {}
            self.call("Input.dispatchKeyEvent", type=kind, key=ch,
                      code="Key" + ch.upper(), windowsVirtualKeyCode=code,
                      nativeVirtualKeyCode=code, **extra)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def expect(what, got, want):
    if got != want:
        fail("%s: got %r, want %r" % (what, got, want))
    print("ok: %s = %r" % (what, got))


def start(chrome, url, profile):
    args = [chrome, "--headless", "--no-sandbox", "--disable-gpu",
            "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-quic",
            "--user-data-dir=" + profile, "--remote-debugging-port=0",
            "--window-size=1400,1000", "--hide-scrollbars",
            url]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    deadline = time.time() + 45
    while time.time() < deadline:
        if os.path.exists(port_file):
            lines = open(port_file).read().split("\n")
            if len(lines) >= 2 and lines[0].isdigit():
                return proc, int(lines[0])
        if proc.poll() is not None:
            fail("chromium exited with %d before DevTools was up" % proc.returncode)
        time.sleep(0.2)
    proc.kill()
    fail("no DevToolsActivePort after 45 s")


def page_target(port, prefix):
    deadline = time.time() + 20
    while time.time() < deadline:
        with urllib.request.urlopen("http://127.0.0.1:%d/json/list" % port) as r:
            targets = json.load(r)
        for t in targets:
            if t.get("type") == "page" and t.get("url", "").startswith(prefix):
                return t["webSocketDebuggerUrl"]
        time.sleep(0.2)
    fail("no page target")


def wait_loaded(p):
    deadline = time.time() + 20
    while time.time() < deadline:
        if p.js("document.readyState === 'complete' && "
                "document.getElementById('tt-data') !== null"):
            return
        time.sleep(0.1)
    fail("page did not finish loading")


def checks(p, shot, ndivs):
    wait_loaded(p)
    p.call("Runtime.enable")
    expect("script ran (html class)", p.js("document.documentElement.className"), "js")
    expect("data-current at load", p.js("document.documentElement.getAttribute('data-current')"), "1")
    expect("divergence sections", p.js("document.querySelectorAll('section.div').length"), ndivs)
    expect("#d2 folded at load", p.js("document.querySelector('#d2 details.dv').open"), False)
    shot_png = p.call("Page.captureScreenshot", format="png")["data"]
    with open(shot, "wb") as f:
        f.write(base64.b64decode(shot_png))
    p.js("document.activeElement && document.activeElement.blur && document.activeElement.blur()")
    p.key("n")
    expect("after n", p.js("document.documentElement.getAttribute('data-current')"), "2")
    expect("#d2 open after n", p.js("document.querySelector('#d2 details.dv').open"), True)
    expect("hash after n", p.js("location.hash"), "#d2")
    shot_png = p.call("Page.captureScreenshot", format="png")["data"]
    with open(shot[:-4] + "_next.png", "wb") as f:
        f.write(base64.b64decode(shot_png))
    for _ in range(ndivs):
        p.key("n")
    expect("n stops at the last", p.js("document.documentElement.getAttribute('data-current')"),
           str(ndivs))
    p.key("p")
    expect("after p", p.js("document.documentElement.getAttribute('data-current')"), str(ndivs - 1))
    # '/' focuses the filter; typing hides the rows of matching functions
    p.key("/")
    expect("filter focused", p.js("document.activeElement.id"), "tt-filter")
    p.call("Input.insertText", text="plain_char")
    hidden = p.js("[].filter.call(document.querySelectorAll('.sbs [data-fn=\"plain_char\"]'),"
                  "function(e){return e.offsetParent===null}).length")
    total = p.js("document.querySelectorAll('.sbs [data-fn=\"plain_char\"]').length")
    if not total or hidden != total:
        fail("filter hid %r of %r plain_char rows" % (hidden, total))
    print("ok: filter hides %d plain_char rows" % hidden)
    p.key("n")
    expect("n typed into the filter is no navigation",
           p.js("document.documentElement.getAttribute('data-current')"), str(ndivs - 1))
    expect("title untouched", p.js("document.title"), "ttdiff: html_inject \u2014 diverged")
    expect("no injected attribute", p.js("document.documentElement.hasAttribute('data-pwned')"), False)
    expect("scripts in the page", p.js("document.scripts.length"), 2)
    expect("no injected elements", p.js("document.querySelectorAll('img,svg,iframe,object,embed').length"), 0)
    msg = p.js("document.querySelector('.sbs .txt').textContent")
    if "<script>document.title='pwned'</script>" not in msg or "\\x01\\x1b[31m" not in msg:
        fail("hostile message not shown as text: %r" % msg)
    print("ok: hostile message shown as text")
    data = p.js("JSON.parse(document.getElementById('tt-data').textContent).first_divergence.stack")
    expect("embedded JSON stack", data, ["main", "process", "handle"])
    errors = [e for e in p.events if e.get("method") in ("Runtime.exceptionThrown",)]
    errors += [e for e in p.events if e.get("method") == "Runtime.consoleAPICalled"
               and e["params"].get("type") == "error"]
    if errors:
        fail("script errors: %r" % errors[:3])


def dump_nojs(p, page, out):
    """Load page with scripts off; write the DOM as the browser built it."""
    p.call("Page.enable")
    p.call("Emulation.setScriptExecutionDisabled", value=True)
    p.call("Page.navigate", url="file://" + os.path.abspath(page))
    deadline = time.time() + 30
    while not any(e.get("method") == "Page.loadEventFired" for e in p.events):
        if time.time() > deadline:
            fail("no load event with scripts disabled")
        p.events.append(json.loads(p.ws.recv()))
    root = p.call("DOM.getDocument", depth=-1)["root"]
    html = p.call("DOM.getOuterHTML", nodeId=root["nodeId"])["outerHTML"]
    with open(out, "w", encoding="utf-8") as f:
        f.write(html)


def main():
    nojs = len(sys.argv) == 6 and sys.argv[1] == "--nojs"
    if len(sys.argv) != 6:
        print(__doc__.split("\n\n")[1])
        sys.exit(2)
    if nojs:
        chrome, page, profile, out = sys.argv[2:]
    else:
        chrome, page, profile, shot, ndivs = sys.argv[1:]
    url = "about:blank" if nojs else "file://" + os.path.abspath(page)
    proc, port = start(chrome, url, profile)
    try:
        p = Page(WebSocket(page_target(port, url[:5])))
        if nojs:
            dump_nojs(p, page, out)
        else:
            checks(p, shot, int(ndivs))
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
    print("ok: cdp checks passed")


if __name__ == "__main__":
    main()
