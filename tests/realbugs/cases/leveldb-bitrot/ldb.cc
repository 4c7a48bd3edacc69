// ldb.cc - the leveldb-bitrot case's application (benchmark code).
// `ldb make`: a fresh database in ./db (no compression), 400 keys with
// 100-byte values, compacted into one table, closed.
// `ldb scan`: opens ./db and verifies it the way a backup tool would: a
// scanner thread reads every entry through an iterator with
// ReadOptions::verify_checksums and counts them while the main thread
// waits for it; then the main thread checks the count.
// Exit 0: made, or every entry read back; 1: the scan failed; 3: another
// number of entries.
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include "leveldb/db.h"
#include "leveldb/options.h"

enum { N = 400, VLEN = 100 };

static void value_of(int i, char *v)
{
    unsigned x = 2166136261u ^ (unsigned)i;
    for (int k = 0; k < VLEN; k++) {
        x = x * 16777619u + 12345u;
        v[k] = (char)('a' + (x >> 24) % 26);
    }
}

static int make_db()
{
    leveldb::Options o;
    o.create_if_missing = true;
    o.compression = leveldb::kNoCompression;
    leveldb::DestroyDB("db", o);
    leveldb::DB *db = nullptr;
    if (!leveldb::DB::Open(o, "db", &db).ok()) return 1;
    char key[32], v[VLEN];
    for (int i = 0; i < N; i++) {
        std::snprintf(key, sizeof key, "key%06d", i);
        value_of(i, v);
        if (!db->Put(leveldb::WriteOptions(), key, leveldb::Slice(v, VLEN)).ok()) return 1;
    }
    db->CompactRange(nullptr, nullptr);
    delete db;
    return 0;
}

struct scan { leveldb::DB *db; int entries; leveldb::Status st; };

// the scanner thread: every entry, checksums verified
static void scan_all(scan *s)
{
    leveldb::ReadOptions ro;
    ro.verify_checksums = true;
    ro.fill_cache = false;
    leveldb::Iterator *it = s->db->NewIterator(ro);
    for (it->SeekToFirst(); it->Valid(); it->Next())
        s->entries++;
    s->st = it->status();
    delete it;
}

__attribute__((noinline)) static int report(const leveldb::Status &st, int entries)
{
    std::printf("scan failed after %d entries: %s\n", entries, st.ToString().c_str());
    return 1;
}

__attribute__((noinline)) static int check(int entries)
{
    if (entries != N) { std::printf("%d entries, want %d\n", entries, N); return 3; }
    std::printf("%d entries verified\n", entries);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && std::strcmp(argv[1], "make") == 0)
        return make_db();
    leveldb::Options o;
    leveldb::DB *db = nullptr;
    leveldb::Status st = leveldb::DB::Open(o, "db", &db);
    if (!st.ok()) return report(st, 0);
    scan s = { db, 0, leveldb::Status() };
    std::thread t(scan_all, &s);
    t.join();
    delete db;
    if (!s.st.ok()) return report(s.st, s.entries);
    return check(s.entries);
}
