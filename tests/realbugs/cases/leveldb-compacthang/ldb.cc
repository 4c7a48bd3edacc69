// ldb.cc - the leveldb-compacthang case's application (benchmark code):
// makes a fresh database in ./db with the smallest write buffer leveldb
// allows (64 KB), on a slow disk for tables (the application's own Env, an
// EnvWrapper: a table file's Sync takes 300 ms), puts 250 keys with
// 1000-byte values (about 4 memtables: each is written to a table by
// leveldb's background thread while this thread goes on writing and, when
// the next memtable is full before that table is written, waits in
// MakeRoomForWrite), then reads every key back and compares it.
// Exit 0: every key read back; 1: a put or read failed; 3: a value
// differs; a run that does not end is ended by the case's timeout.
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/options.h"

enum { N = 250, VLEN = 1000 };

// a table file whose Sync is slow
class SlowTable : public leveldb::WritableFile {
 public:
  explicit SlowTable(leveldb::WritableFile *f) : f_(f) {}
  ~SlowTable() override { delete f_; }
  leveldb::Status Append(const leveldb::Slice &d) override { return f_->Append(d); }
  leveldb::Status Close() override { return f_->Close(); }
  leveldb::Status Flush() override { return f_->Flush(); }
  leveldb::Status Sync() override {
    usleep(300000); // a slow disk
    return f_->Sync();
  }

 private:
  leveldb::WritableFile *f_;
};

class SlowDisk : public leveldb::EnvWrapper {
 public:
  SlowDisk() : EnvWrapper(leveldb::Env::Default()) {}
  leveldb::Status NewWritableFile(const std::string &name,
                                  leveldb::WritableFile **out) override {
    leveldb::Status s = target()->NewWritableFile(name, out);
    if (s.ok() && name.size() > 4 && name.compare(name.size() - 4, 4, ".ldb") == 0)
      *out = new SlowTable(*out);
    return s;
  }
};

// the value of key i: VLEN letters from a fixed generator, no calls
static void value_of(int i, char *v)
{
  unsigned x = 2166136261u ^ (unsigned)i;
  for (int k = 0; k < VLEN; k++) {
    x = x * 16777619u + 12345u;
    v[k] = (char)('a' + (x >> 24) % 26);
  }
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
  static SlowDisk disk;
  static char v[VLEN];
  leveldb::Options o;
  o.create_if_missing = true;
  o.compression = leveldb::kNoCompression;
  o.write_buffer_size = 64 << 10;
  o.env = &disk;
  leveldb::DestroyDB("db", o);
  leveldb::DB *db = nullptr;
  leveldb::Status s = leveldb::DB::Open(o, "db", &db);
  if (!s.ok()) return report("open", 0, s);
  char key[32];
  for (int i = 0; i < N; i++) {
    std::snprintf(key, sizeof key, "key%06d", i);
    value_of(i, v);
    s = db->Put(leveldb::WriteOptions(), key, leveldb::Slice(v, VLEN));
    if (!s.ok()) return report("put", i, s);
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    std::string got;
    std::snprintf(key, sizeof key, "key%06d", i);
    s = db->Get(leveldb::ReadOptions(), key, &got);
    if (!s.ok()) { int r = report("get", i, s); delete db; return r; }
    value_of(i, v);
    bad += got.size() != VLEN || std::memcmp(got.data(), v, VLEN) != 0;
  }
  delete db;
  return check(N, bad);
}
