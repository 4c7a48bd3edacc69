// tinyxml-hexentity's application: a notes store that keeps user text in
// an XML file with TinyXML. It saves 30 notes (one of them explains how
// to type a smiley in HTML: the text itself contains "&#x263A;"), loads
// the file back into a fresh document and checks that every note reads
// back as it was written; exit 1 on the first note that does not.
#include <cstdio>
#include <string>
#include <vector>
#include "tinyxml.h"

static std::vector<std::string> make_notes()
{
    std::vector<std::string> notes;
    char buf[96];
    for (int i = 0; i < 30; i++) {
        if (i == 17)
            notes.push_back("HTML tip: type &#x263A; to get a smiley");
        else {
            snprintf(buf, sizeof buf, "note %d: buy %d apples & %d pears <fresh>", i, i + 1, 2 * i);
            notes.push_back(buf);
        }
    }
    return notes;
}

static bool save_notes(const std::vector<std::string> &notes, const char *path)
{
    TiXmlDocument doc;
    doc.LinkEndChild(new TiXmlDeclaration("1.0", "UTF-8", ""));
    TiXmlElement *root = new TiXmlElement("notes");
    doc.LinkEndChild(root);
    for (size_t i = 0; i < notes.size(); i++) {
        TiXmlElement *n = new TiXmlElement("note");
        n->SetAttribute("id", (int)i);
        n->LinkEndChild(new TiXmlText(notes[i]));
        root->LinkEndChild(n);
    }
    return doc.SaveFile(path);
}

static int check_notes(const std::vector<std::string> &notes, const char *path)
{
    TiXmlDocument doc;
    if (!doc.LoadFile(path)) {
        fprintf(stderr, "%s: %s\n", path, doc.ErrorDesc());
        return 1;
    }
    TiXmlElement *n = doc.RootElement() ? doc.RootElement()->FirstChildElement("note") : 0;
    for (size_t i = 0; i < notes.size(); i++, n = n ? n->NextSiblingElement("note") : 0) {
        const char *text = n ? n->GetText() : 0;
        if (!text || notes[i] != text) {
            fprintf(stderr, "note %zu reads back as \"%s\", was \"%s\"\n", i,
                    text ? text : "(none)", notes[i].c_str());
            return 1;
        }
    }
    printf("%zu notes saved and read back\n", notes.size());
    return 0;
}

int main()
{
    std::vector<std::string> notes = make_notes();
    if (!save_notes(notes, "notes.xml")) {
        perror("notes.xml");
        return 2;
    }
    return check_notes(notes, "notes.xml");
}
