// grid.cpp - the tinyxml2-hexattr case's application (benchmark code):
// reads <grid rows="..." cols="..."/> from the file argv[1] with
// tinyxml2's QueryIntAttribute and writes a table of rows x cols cells
// as a new XML document to stdout. Exit 1 when the grid is empty.
#include <cstdio>
#include "tinyxml2.h"
using namespace tinyxml2;

__attribute__((noinline)) static void add_cell(XMLDocument& out, XMLElement* row, int r, int c)
{
    XMLElement* cell = out.NewElement("cell");
    cell->SetAttribute("r", r);
    cell->SetAttribute("c", c);
    row->InsertEndChild(cell);
}

__attribute__((noinline)) static void add_row(XMLDocument& out, XMLElement* table, int r, int cols)
{
    XMLElement* row = out.NewElement("row");
    for (int c = 0; c < cols; c++)
        add_cell(out, row, r, c);
    table->InsertEndChild(row);
}

__attribute__((noinline)) static int build(XMLDocument& out, int rows, int cols)
{
    XMLElement* table = out.NewElement("table");
    out.InsertEndChild(table);
    for (int r = 0; r < rows; r++)
        add_row(out, table, r, cols);
    return rows * cols;
}

int main(int argc, char** argv)
{
    if (argc < 2) return 2;
    XMLDocument in;
    if (in.LoadFile(argv[1]) != XML_SUCCESS) { fprintf(stderr, "grid: %s\n", in.ErrorStr()); return 2; }
    XMLElement* g = in.FirstChildElement("grid");
    if (!g) return 2;
    int rows = 0, cols = 0;
    if (g->QueryIntAttribute("rows", &rows) != XML_SUCCESS ||
        g->QueryIntAttribute("cols", &cols) != XML_SUCCESS) {
        fprintf(stderr, "grid: rows and cols must be numbers\n");
        return 2;
    }
    XMLDocument out;
    int n = build(out, rows, cols);
    out.Print();
    printf("%d cells\n", n);
    return n == 0 ? 1 : 0;
}
