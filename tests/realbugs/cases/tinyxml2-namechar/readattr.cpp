// readattr.cpp - the tinyxml2-namechar case's application (benchmark
// code): loads the XML file argv[1] and prints the "data-id" attribute of
// its <entry> element; a load error is reported (exit 1).
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
    const XMLElement* e = doc.FirstChildElement("config")->FirstChildElement("entry");
    printf("data-id = %s\n", e->Attribute("data-id"));
    return 0;
}
