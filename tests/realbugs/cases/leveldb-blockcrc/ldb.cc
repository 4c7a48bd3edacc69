// ldb.cc - the leveldb-blockcrc case's application (benchmark code):
// makes a fresh database in ./db (no compression, so every block is
// stored as built), puts 400 keys with 100-byte values, compacts it
// (CompactRange: the memtable is written to a table by leveldb's
// background thread while this thread waits), then reads every key back
// with ReadOptions::verify_checksums and compares it with what was put.
// Exit 0: every key read back; 1: a read failed; 3: a value differs.
#include <cstdio>
#include <string>
#include "leveldb/db.h"
#include "leveldb/options.h"

static std::string value_of(int i)
{
    std::string v;
    unsigned x = 2166136261u ^ (unsigned)i;
    for (int k = 0; k < 100; k++) {
        x = x * 16777619u + 12345u;
        v.push_back((char)('a' + (x >> 24) % 26));
    }
    return v;
}

__attribute__((noinline)) static int report(const char *what, int i, const leveldb::Status &s)
{
    std::printf("%s %d failed: %s\n", what, i, s.ToString().c_str());
    return 1;
}

__attribute__((noinline)) static int check(int n, int bad)
{
    if (bad) { std::printf("%d of %d values differ\n", bad, n); return 3; }
    std::printf("%d keys read back\n", n);
    return 0;
}

int main()
{
    leveldb::Options o;
    o.create_if_missing = true;
    o.compression = leveldb::kNoCompression;
    leveldb::DestroyDB("db", o);
    leveldb::DB *db = nullptr;
    leveldb::Status s = leveldb::DB::Open(o, "db", &db);
    if (!s.ok()) return report("open", 0, s);
    const int n = 400;
    char key[32];
    for (int i = 0; i < n; i++) {
        std::snprintf(key, sizeof key, "key%06d", i);
        s = db->Put(leveldb::WriteOptions(), key, value_of(i));
        if (!s.ok()) return report("put", i, s);
    }
    db->CompactRange(nullptr, nullptr);
    leveldb::ReadOptions ro;
    ro.verify_checksums = true;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        std::string v;
        std::snprintf(key, sizeof key, "key%06d", i);
        s = db->Get(ro, key, &v);
        if (!s.ok()) { int r = report("get", i, s); delete db; return r; }
        bad += v != value_of(i);
    }
    delete db;
    return check(n, bad);
}
