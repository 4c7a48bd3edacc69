// readentry.cpp - the tinyxml2-endtag case's application (benchmark code):
// loads the XML file argv[1] and prints the text of <config>'s <entry>; a
// load error is reported (exit 1).
#include <cstdio>
#include "tinyxml2.h"
using namespace tinyxml2;

int main(int argc, char** argv)
{
    if (argc < 2) return 2;
    XMLDocument doc;
    if (doc.LoadFile(argv[1]) != XML_SUCCESS) {
        printf("cannot load %s: %s\n", argv[1], doc.ErrorStr());
        return 1;
    }
    printf("entry = %s\n", doc.FirstChildElement("config")->FirstChildElement("entry")->GetText());
    return 0;
}
