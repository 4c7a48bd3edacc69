// tinyxml-declnul's application: per-user settings kept as XML files
// (profiles/userNN.xml), loaded with TinyXML at start. The application
// writes twelve profiles (as earlier sessions would have); user 5's file
// was cut short by a crash while it was being saved: only the XML
// declaration's first attribute and a blank survive. A profile that does
// not load is reset to the defaults and saved again, as the application
// intends; exit 0 once every profile is usable.
#include <cstdio>
#include <string>
#include "tinyxml.h"

static void write_profiles(int n)
{
    char path[64], text[256];
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "profiles/user%02d.xml", i);
        FILE *f = fopen(path, "wb");
        if (!f)
            continue;
        if (i == 5)
            snprintf(text, sizeof text, "<?xml version=\"1.0\" ");   // cut short
        else
            snprintf(text, sizeof text,
                     "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n<profile user=\"%d\">\n"
                     "  <theme>%s</theme>\n  <fontsize>%d</fontsize>\n</profile>\n",
                     i, i % 2 ? "dark" : "light", 10 + i);
        fputs(text, f);
        fclose(f);
    }
}

static bool load_profile(const char *path, std::string *theme)
{
    TiXmlDocument doc;
    if (!doc.LoadFile(path))
        return false;
    TiXmlElement *p = doc.RootElement();
    TiXmlElement *t = p ? p->FirstChildElement("theme") : 0;
    if (!t || !t->GetText())
        return false;
    *theme = t->GetText();
    return true;
}

static bool reset_profile(const char *path, int user)
{
    TiXmlDocument doc;
    doc.LinkEndChild(new TiXmlDeclaration("1.0", "UTF-8", ""));
    TiXmlElement *p = new TiXmlElement("profile");
    p->SetAttribute("user", user);
    TiXmlElement *t = new TiXmlElement("theme");
    t->LinkEndChild(new TiXmlText("light"));
    p->LinkEndChild(t);
    doc.LinkEndChild(p);
    return doc.SaveFile(path);
}

int main()
{
    const int n = 12;
    write_profiles(n);
    int reset = 0;
    char path[64];
    for (int i = 0; i < n; i++) {
        std::string theme;
        snprintf(path, sizeof path, "profiles/user%02d.xml", i);
        if (!load_profile(path, &theme)) {
            fprintf(stderr, "%s: unreadable, reset to the defaults\n", path);
            if (!reset_profile(path, i) || !load_profile(path, &theme))
                return 1;
            reset++;
        }
    }
    printf("%d profiles loaded, %d reset\n", n, reset);
    return 0;
}
