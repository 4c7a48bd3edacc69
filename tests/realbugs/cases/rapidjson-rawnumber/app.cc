// rapidjson-rawnumber's application: a ledger export tool. It reads a
// ledger (ledger.json) with RapidJSON's SAX reader, keeping every number
// as the text it was written in (kParseNumbersAsStringsFlag: amounts
// have more digits than a double holds), and streams it straight into a
// PrettyWriter to write the indented ledger (ledger.out.json). It then
// loads what it wrote into a Document and checks every entry: its
// "amount" must still be a JSON number; exit 1 on the first that is not.
#include <cstdio>
#include <string>
#include "rapidjson/document.h"
#include "rapidjson/filereadstream.h"
#include "rapidjson/filewritestream.h"
#include "rapidjson/prettywriter.h"
#include "rapidjson/reader.h"

using namespace rapidjson;

static bool pretty_copy(const char *in, const char *out)
{
    FILE *fi = fopen(in, "rb"), *fo = fopen(out, "wb");
    if (!fi || !fo)
        return false;
    char rbuf[4096], wbuf[4096];
    FileReadStream is(fi, rbuf, sizeof rbuf);
    FileWriteStream os(fo, wbuf, sizeof wbuf);
    PrettyWriter<FileWriteStream> writer(os);
    Reader reader;
    bool ok = !reader.Parse<kParseNumbersAsStringsFlag>(is, writer).IsError();
    os.Flush();
    fclose(fi);
    fclose(fo);
    return ok;
}

static int check_ledger(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 2;
    char buf[4096];
    FileReadStream is(f, buf, sizeof buf);
    Document d;
    d.ParseStream(is);
    fclose(f);
    if (d.HasParseError() || !d.HasMember("entries") || !d["entries"].IsArray()) {
        fprintf(stderr, "%s: not a ledger\n", path);
        return 1;
    }
    const Value &e = d["entries"];
    for (SizeType i = 0; i < e.Size(); i++) {
        const Value &a = e[i]["amount"];
        if (!a.IsNumber()) {
            fprintf(stderr, "entry %u: amount %s%s%s is no longer a number\n", i,
                    a.IsString() ? "\"" : "", a.IsString() ? a.GetString() : "?",
                    a.IsString() ? "\"" : "");
            return 1;
        }
    }
    printf("%u entries written\n", e.Size());
    return 0;
}

int main()
{
    FILE *f = fopen("ledger.json", "wb");
    if (!f)
        return 2;
    fprintf(f, "{\"currency\": \"EUR\", \"entries\": [");
    for (int i = 0; i < 50; i++)
        fprintf(f, "%s{\"id\": %d, \"memo\": \"entry %d\", \"amount\": %d%09d.%06d}",
                i ? ", " : "", 1000 + i, i, 1234567 + i, 890123456, 100 * i + 1);
    fprintf(f, "]}\n");
    fclose(f);
    if (!pretty_copy("ledger.json", "ledger.out.json")) {
        fprintf(stderr, "ledger.json: parse error\n");
        return 2;
    }
    return check_ledger("ledger.out.json");
}
