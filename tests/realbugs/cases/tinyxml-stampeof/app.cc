// tinyxml-stampeof's application: a message receiver. Twelve XML
// messages arrive over a link (here: spool/ files the application writes
// itself, as its sender would); each is copied into the receiver's one
// reusable buffer, terminated, and parsed with TiXmlDocument::Parse.
// Message 7 was cut off when the link dropped, in the middle of its
// body's last character (a fullwidth '!', U+FF01, EF BC 81 in UTF-8: the
// message ends after EF). The receiver checks each message's signature;
// a message that does not parse or does not check out is logged and
// skipped; exit 0 once all twelve were handled.
#include <cstdio>
#include <cstring>
#include <string>
#include "tinyxml.h"

static char rxbuf[1024];    // the link's receive buffer, reused

static void write_spool(int n)
{
    char path[64], msg[512];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "spool/msg%02d.xml", i);
        FILE *f = fopen(path, "wb");
        if (!f)
            continue;
        const char *extra = i == 6 ? " on everything in store today only" : "";
        int len = snprintf(msg, sizeof msg,
                           "<msg id=\"%d\">\n  <body>Sale! %d%% off%s\xEF\xBC\x81</body>\n"
                           "  <sig>shop%d</sig>\n</msg>\n", i, 10 + i, extra, i);
        if (i == 7)
            len = (int)(strstr(msg, "\xEF\xBC\x81") - msg) + 1;   // cut after EF
        fwrite(msg, 1, (size_t)len, f);
        fclose(f);
    }
}

// receive message I into rxbuf; its length
static size_t receive(int i)
{
    char path[64];
    snprintf(path, sizeof path, "spool/msg%02d.xml", i);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(rxbuf, 1, sizeof rxbuf - 1, f);
    rxbuf[n] = 0;
    fclose(f);
    return n;
}

static bool handle_message(int i)
{
    TiXmlDocument doc;
    doc.Parse(rxbuf, 0, TIXML_ENCODING_UTF8);
    if (doc.Error()) {
        fprintf(stderr, "msg %d: %s (row %d, column %d): skipped\n", i, doc.ErrorDesc(),
                doc.ErrorRow(), doc.ErrorCol());
        return false;
    }
    TiXmlElement *m = doc.RootElement();
    TiXmlElement *s = m ? m->FirstChildElement("sig") : 0;
    char want[32];
    snprintf(want, sizeof want, "shop%d", i);
    if (!s || !s->GetText() || strcmp(s->GetText(), want) != 0) {
        fprintf(stderr, "msg %d: signature does not match: skipped\n", i);
        return false;
    }
    return true;
}

int main()
{
    const int n = 12;
    write_spool(n);
    int ok = 0;
    for (int i = 0; i < n; i++) {
        if (receive(i) == 0)
            return 2;
        ok += handle_message(i);
    }
    printf("%d messages handled, %d accepted\n", n, ok);
    return 0;
}
